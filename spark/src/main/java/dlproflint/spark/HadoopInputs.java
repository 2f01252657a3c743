package dlproflint.spark;

import dlproflint.cli.CliEnv;
import dlproflint.cli.CliException;
import dlproflint.cli.ExitCodes;
import dlproflint.cli.JobInputs;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A job's inputs on any Hadoop filesystem ({@code file:}, {@code hdfs:}, {@code s3a:}, ...), expanded on the driver:
 * a folder to every profile-named file under it, a glob through the filesystem's glob. Inputs without a scheme
 * are expanded exactly as {@code dlprof-lint job} expands them on this machine, so both name the same profiles.
 */
final class HadoopInputs {
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
    private static final Pattern GLOB = Pattern.compile("[*?\\[{]");

    private HadoopInputs() {
    }

    static boolean hasScheme(String path) {
        return SCHEME.matcher(path).matches() && !path.matches("^[a-zA-Z]:\\\\.*");
    }

    /** A path the driver cannot write as a local file: a URI of a filesystem other than {@code file:}. */
    static boolean isRemote(String path) {
        return hasScheme(path) && !path.startsWith("file:");
    }

    static List<String> expand(CliEnv env, List<String> inputs, Configuration conf) throws CliException {
        Set<String> out = new LinkedHashSet<>();
        List<String> local = new ArrayList<>();
        for (String in : inputs) {
            if (!hasScheme(in)) {
                local.add(in);
                continue;
            }
            if (!local.isEmpty()) {
                out.addAll(JobInputs.expand(env, local));
                local.clear();
            }
            out.addAll(remote(in, conf));
        }
        if (!local.isEmpty()) out.addAll(JobInputs.expand(env, local));
        return new ArrayList<>(out);
    }

    private static List<String> remote(String in, Configuration conf) throws CliException {
        try {
            Path p = new Path(in);
            FileSystem fs = p.getFileSystem(conf);
            List<String> found = new ArrayList<>();
            if (GLOB.matcher(p.toUri().getPath()).find()) {
                FileStatus[] matches = fs.globStatus(p);
                if (matches == null || matches.length == 0) throw new CliException(ExitCodes.PROFILE, in + ": no file matches");
                for (FileStatus s : matches) {
                    if (s.isDirectory()) found.addAll(under(fs, s.getPath()));
                    else found.add(s.getPath().toString());
                }
            } else if (fs.exists(p) && fs.getFileStatus(p).isDirectory()) {
                found.addAll(under(fs, p));
                if (found.isEmpty()) throw new CliException(ExitCodes.PROFILE, in + ": no profiles in this folder");
            } else {
                found.add(in); // a missing file is reported as unreadable with the others
            }
            found.sort(JobInputs.NATURAL);
            return found;
        } catch (IOException e) {
            throw new CliException(ExitCodes.PROFILE, in + ": cannot list: " + e.getMessage());
        }
    }

    /** Profile-named files under a folder (recursively, hidden ones skipped). */
    private static List<String> under(FileSystem fs, Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            LocatedFileStatus s = it.next();
            String name = s.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) continue;
            if (JobInputs.PROFILE_NAME.matcher(name).matches()) out.add(s.getPath().toString());
        }
        out.sort(JobInputs.NATURAL);
        return out;
    }
}
