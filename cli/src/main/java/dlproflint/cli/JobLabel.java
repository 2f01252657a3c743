package dlproflint.cli;

import dlproflint.facts.JobInput;

import java.util.List;

/**
 * How reports name a job: the deepest folder holding all its used profiles (as given), or the only profile;
 * {@code .} when they share no folder.
 */
final class JobLabel {
    private JobLabel() {
    }

    static String of(List<JobInput> inputs) {
        List<String> used = inputs.stream().filter(JobInput::used).map(JobInput::profile).toList();
        if (used.isEmpty()) return "job";
        if (used.size() == 1) return used.get(0);
        String common = folder(used.get(0));
        for (String p : used) {
            while (!common.isEmpty() && !p.startsWith(common)) common = folder(common.substring(0, common.length() - 1));
        }
        if (common.isEmpty()) return ".";
        return common.length() > 1 ? common.substring(0, common.length() - 1) : common;
    }

    /** The folder part of a path, with its trailing {@code /}; empty for a bare name. */
    private static String folder(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash + 1);
    }
}
