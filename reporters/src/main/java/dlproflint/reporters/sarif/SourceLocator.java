package dlproflint.reporters.sarif;

import dlproflint.findings.Finding;
import dlproflint.facts.StackFrame;
import dlproflint.facts.StackFrames;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Chooses the physical location of every SARIF result, in this order:
 * <ol>
 *   <li>the finding's Python stack frame, when its file is a file inside the repository: an absolute
 *       path under the root, a path relative to the root, or (profile recorded in a container or on
 *       another machine) the longest trailing part of the path that exists in the repository, never
 *       for frames in {@code site-packages}/{@code dist-packages} or the Python library;</li>
 *   <li>the configured anchor file;</li>
 *   <li>the profile itself, when it lies inside the repository;</li>
 *   <li>otherwise a {@link SarifLocationException}: GitHub rejects a whole upload for one unlocated result.</li>
 * </ol>
 * Paths are compared after resolving symbolic links, so {@code /tmp} vs {@code /private/tmp} or a
 * linked checkout still count as inside. Other reports that point into the repository (GitLab Code Quality)
 * place findings the same way.
 */
public final class SourceLocator {
    private final Path root;
    private final Path rootReal;
    private final ArtifactRef anchor;
    private final String report;
    /** the root is a git checkout (see {@link SarifOptions#repository()}) */
    private final boolean repository;

    SourceLocator(SarifOptions options) throws SarifLocationException {
        this(options, "SARIF");
    }

    /** @param report the report's name in error messages, e.g. {@code SARIF} */
    public SourceLocator(SarifOptions options, String report) throws SarifLocationException {
        this.report = report;
        if (options == null || options.repoRoot() == null) {
            throw new SarifLocationException(report + " output needs the repository root, and none was given");
        }
        root = options.repoRoot().toAbsolutePath().normalize();
        repository = options.repository();
        if (!Files.isDirectory(root)) {
            throw new SarifLocationException(report + " repository root " + root + " is not a directory");
        }
        rootReal = real(root);
        anchor = options.anchorFile() == null ? null : anchor(options.anchorFile());
    }

    /**
     * A locator for a report that can carry findings without a place (GitHub annotations, JUnit): none when no
     * repository root was given.
     */
    public static SourceLocator optional(SarifOptions options, String report) throws SarifLocationException {
        return options == null || options.repoRoot() == null ? null : new SourceLocator(options, report);
    }

    private ArtifactRef anchor(Path configured) throws SarifLocationException {
        Path p = configured.isAbsolute() ? configured : root.resolve(configured);
        if (!Files.isRegularFile(p)) {
            throw new SarifLocationException(report + " anchor file " + configured + " does not exist (resolved to " + p + ")");
        }
        String uri = relativeUri(p);
        if (uri == null) {
            throw new SarifLocationException(report + " anchor file " + configured + " is not inside the repository root " + root);
        }
        return new ArtifactRef(uri, 1, ArtifactRef.ANCHOR);
    }

    public ArtifactRef locate(Finding f, String profilePath) throws SarifLocationException {
        ArtifactRef where = locateIfPossible(f, profilePath);
        if (where != null) return where;
        String path = profilePath != null ? profilePath : f.profilePath();
        throw new SarifLocationException("cannot place finding " + f.ruleId() + " of profile " + path
                + " in the repository for " + report + ": no stack frame in a repository file, no anchor file configured"
                + " (sarif anchor in .dlprof-lint.yml), and the profile is outside the repository root " + root);
    }

    /**
     * The same, or null where {@link #locate} would fail: for reports that can carry a finding without a place
     * (GitHub workflow commands, JUnit).
     */
    public ArtifactRef locateIfPossible(Finding f, String profilePath) {
        ArtifactRef fromStack = fromStack(f.location());
        if (fromStack != null) return fromStack;
        if (anchor != null) return anchor;
        String path = profilePath != null ? profilePath : f.profilePath();
        String uri = path == null ? null : insideRepo(path);
        if (uri == null && path != null && !repository) uri = relativeToRoot(path);
        return uri == null ? null : new ArtifactRef(uri, 1, ArtifactRef.PROFILE);
    }

    /** Outside a git checkout: the profile relative to the working directory, wherever it lies ({@code ../runs/a.sqlite}). */
    private String relativeToRoot(String path) {
        try {
            Path p = real(Path.of(path).toAbsolutePath().normalize());
            Path rel = rootReal.relativize(p);
            return rel.getNameCount() == 0 || rel.toString().isEmpty() ? null : toUri(rel);
        } catch (IllegalArgumentException e) { // InvalidPathException, or paths of different roots
            return null;
        }
    }

    /** A location's URI reference as the plain relative path GitLab and GitHub want ({@code models/net.py}). */
    public static String plainPath(String uri) {
        String p = URI.create(uri).getPath();
        p = p.startsWith("./") ? p.substring(2) : p;
        return Path.of(p).normalize().toString().replace('\\', '/');
    }

    /** Whether results are placed relative to a git checkout (else to the working directory). */
    public boolean repository() {
        return repository;
    }

    /** The folder every URI is relative to, as an absolute {@code file:} URI ending in '/'. */
    public URI rootUri() {
        return rootReal.toUri();
    }

    /** A stack frame's place in the repository, or null when its file is not there (or is a library's). */
    ArtifactRef fromStack(StackFrame frame) {
        Path file = repositoryFile(root, frame);
        return file == null ? null : new ArtifactRef(toUri(rootReal.relativize(file)), Math.max(1, frame.line()), ArtifactRef.STACK);
    }

    /**
     * The file a stack frame names, as a real path inside {@code root}, or null: the frame's path when it lies under the
     * root (absolute, or relative to the root), else, for a path recorded elsewhere (a container mount such as
     * {@code /workspace}) and not a library's, the longest trailing part of it that exists in the repository. Every
     * report places a frame this way, and the CLI reads the user's source through it, so both agree on the file.
     */
    public static Path repositoryFile(Path root, StackFrame frame) {
        if (frame == null || frame.file() == null || frame.file().isBlank()) return null;
        Path p;
        try {
            p = Path.of(frame.file());
        } catch (InvalidPathException e) {
            return null;
        }
        Path base = root.toAbsolutePath().normalize();
        Path baseReal = real(base);
        Path file = existingInside(baseReal, p.isAbsolute() ? p : base.resolve(p));
        if (file == null && p.isAbsolute() && !StackFrames.isLibraryFile(frame.file())) {
            for (int i = 1; i < p.getNameCount() && file == null; i++) {
                file = existingInside(baseReal, base.resolve(p.subpath(i, p.getNameCount())));
            }
        }
        return file;
    }

    /** {@code p}'s real path when it is a regular file inside the repository, else null. */
    private static Path existingInside(Path rootReal, Path p) {
        if (!Files.isRegularFile(p)) return null;
        Path real = real(p.toAbsolutePath().normalize());
        return real.startsWith(rootReal) && !real.equals(rootReal) ? real : null;
    }

    /** A profile path as given on the command line: relative to the working directory. */
    private String insideRepo(String path) {
        try {
            Path p = Path.of(path).toAbsolutePath().normalize();
            return Files.exists(p) ? relativeUri(p) : lexicalRelative(p);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private String lexicalRelative(Path p) {
        return p.startsWith(root) && !p.equals(root) ? toUri(root.relativize(p)) : null;
    }

    /** Repository-relative URI of an existing file, or null when it is outside the repository. */
    private String relativeUri(Path p) {
        Path real = real(p.toAbsolutePath().normalize());
        if (!real.startsWith(rootReal) || real.equals(rootReal)) return null;
        return toUri(rootReal.relativize(real));
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }

    /** '/'-separated, percent-encoded; a leading segment with ':' gets "./" so it cannot read as a scheme. */
    static String toUri(Path relative) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < relative.getNameCount(); i++) {
            if (i > 0) b.append('/');
            b.append(relative.getName(i).toString());
        }
        try {
            String s = new URI(null, null, b.toString(), null).toASCIIString();
            return s.indexOf(':') >= 0 && (s.indexOf('/') < 0 || s.indexOf(':') < s.indexOf('/')) ? "./" + s : s;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot encode path " + b, e);
        }
    }
}
