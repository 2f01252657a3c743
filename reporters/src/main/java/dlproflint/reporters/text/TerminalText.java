package dlproflint.reporters.text;

import dlproflint.reporters.SafeText;

/**
 * Makes profile-controlled strings (kernel names, NVTX ranges, file paths) safe to print on a
 * terminal, through the neutralisation every report shares ({@link SafeText}): control characters,
 * including ESC, would otherwise let a profile move the cursor or recolour the screen, and a bidi
 * override (U+202E) would make a name read differently from what it is. They are shown escaped instead.
 */
final class TerminalText {
    private TerminalText() {
    }

    /** One line: every control character escaped, newlines included. */
    static String line(String s) {
        return s == null ? "" : SafeText.escape(s, SafeText.KEEP_NOTHING);
    }

    /** Several lines: newlines kept (CRLF/CR normalised), every other control character escaped. */
    static String[] lines(String s) {
        if (s == null) return new String[] {""};
        String[] parts = s.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
        for (int i = 0; i < parts.length; i++) parts[i] = line(parts[i]);
        return parts;
    }
}
