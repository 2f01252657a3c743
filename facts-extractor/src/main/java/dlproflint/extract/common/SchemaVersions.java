package dlproflint.extract.common;

/**
 * Whether a profile's schema is newer than the readers know, so the report can say that parts of it may have gone
 * unread instead of reading it silently: readers feature-detect every table, column and field they use and ignore
 * the rest, which is right for additions and wrong to keep quiet about.
 */
public final class SchemaVersions {
    /** Newest nsys export schema major seen (3.x: nsys 2023.1 to 2025.5). */
    public static final int NSYS_MAJOR = 3;
    /** Newest Kineto trace {@code schemaVersion} seen. */
    public static final int KINETO = 1;

    private SchemaVersions() {
    }

    /** The version's leading number is above {@code knownMajor}; false when there is none or it does not parse. */
    public static boolean newer(String version, int knownMajor) {
        if (version == null) return false;
        String v = version.strip();
        int end = 0;
        while (end < v.length() && Character.isDigit(v.charAt(end))) end++;
        if (end == 0 || end > 9) return false;
        return Integer.parseInt(v.substring(0, end)) > knownMajor;
    }

    /** The warning's message. */
    public static String message(String what, String version, String known) {
        return what + " " + version + " is newer than the newest this reader knows (" + known + "): tables, columns "
                + "or fields it does not know are ignored, and facts may be missing";
    }
}
