package dlproflint.ruletests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The module graph of docs/architecture.md, read from the poms: model ← extractor, job, engine, reporters; nothing
 * depends upward; the model stays free of Drools, SQLite and JSON libraries.
 */
class ModuleGraphTest {
    /** Module -> the project modules its main code may depend on (compile scope). */
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "model", Set.of(),
            "synth", Set.of(),
            "facts-extractor", Set.of("model"),
            "job", Set.of("model"),
            "engine", Set.of("model"),
            "rules", Set.of("engine", "model"),
            "reporters", Set.of("model"));

    private static final Pattern DEP = Pattern.compile(
            "<dependency>\\s*<groupId>dev\\.dlproflint</groupId>\\s*<artifactId>([\\w-]+)</artifactId>(.*?)</dependency>", Pattern.DOTALL);

    @Test
    void noModuleDependsUpward() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Set<String>> e : ALLOWED.entrySet()) {
            String pom = Files.readString(AllPacks.repo().resolve(e.getKey()).resolve("pom.xml"));
            Set<String> compile = new TreeSet<>();
            Matcher m = DEP.matcher(pom);
            while (m.find()) {
                if (!m.group(2).contains("<scope>test</scope>")) compile.add(m.group(1));
            }
            compile.removeAll(e.getValue());
            if (!compile.isEmpty()) problems.add(e.getKey() + " depends on " + compile);
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theModelImportsNoEngineStorageOrJsonLibrary() throws IOException {
        List<String> problems = new ArrayList<>();
        Path src = AllPacks.repo().resolve("model/src/main/java");
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (line.matches("import (static )?(org\\.drools|org\\.kie|org\\.sqlite|java\\.sql|com\\.fasterxml|dlproflint\\.(engine|extract|reporters|cli)).*")) {
                        problems.add(src.relativize(f) + ": " + line);
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
    }
}
