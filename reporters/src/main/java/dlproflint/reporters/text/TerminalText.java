package dlproflint.reporters.text;

/**
 * Makes profile-controlled strings (kernel names, NVTX ranges, file paths) safe to print on a
 * terminal: C0/C1 control characters, including ESC, would otherwise let a profile move the cursor
 * or recolour the screen. They are shown as {@code \xNN} instead.
 */
final class TerminalText {
    private TerminalText() {
    }

    /** One line: every control character escaped, newlines included. */
    static String line(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isControl(c)) {
                if (b == null) b = new StringBuilder(s.length() + 8).append(s, 0, i);
                b.append(String.format("\\x%02x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }

    /** Several lines: newlines kept (CRLF/CR normalised), every other control character escaped. */
    static String[] lines(String s) {
        if (s == null) return new String[] {""};
        String[] parts = s.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        for (int i = 0; i < parts.length; i++) parts[i] = line(parts[i]);
        return parts;
    }

    private static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f);
    }
}
