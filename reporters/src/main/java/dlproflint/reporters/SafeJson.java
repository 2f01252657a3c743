package dlproflint.reporters;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * JSON as every JSON output writes it (the JSON and SARIF reports, Code Quality, the DLProf-format JSON reports,
 * baselines): JSON's own escapes, plus a {@code \\u} escape for each character that is invisible or reorders the
 * text around it ({@link SafeText#needsEscape}: DEL and the C1 controls, bidirectional marks, overrides and
 * isolates, U+2028/U+2029, the byte-order mark). The file then holds none of them raw, so a viewer, a diff or a
 * terminal shows what it holds; a JSON parser still returns the exact strings.
 */
public final class SafeJson extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private static final SafeJson INSTANCE = new SafeJson();
    private final int[] ascii;

    private SafeJson() {
        ascii = standardAsciiEscapesForJSON();
        ascii[0x7F] = ESCAPE_STANDARD;
    }

    /** A factory whose generators escape as described; the caller adds its own features. */
    public static JsonFactory factory() {
        JsonFactory f = new JsonFactory();
        f.setCharacterEscapes(INSTANCE);
        return f;
    }

    /** A mapper builder over {@link #factory()}. */
    public static JsonMapper.Builder mapper() {
        return JsonMapper.builder(factory());
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        if (ch > 0xFFFF || !SafeText.needsEscape((char) ch)) return null;
        return new SerializedString(String.format("\\u%04X", ch));
    }
}
