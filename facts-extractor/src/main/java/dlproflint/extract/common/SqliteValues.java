package dlproflint.extract.common;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * SQLite's conversions of a stored value to the type a column is read as, for {@link TableFileScan}, which reads
 * values from the file and must give what {@code sqlite3_column_int64} and {@code sqlite3_column_text} would. An
 * export stores integers in its integer columns and text in its text columns; these are for the rest.
 */
final class SqliteValues {
    private SqliteValues() {
    }

    /** A REAL read as an integer: truncated toward zero, saturated at the ends of the 64-bit range (as Java casts). */
    static long realToInt64(double d) {
        return (long) d;
    }

    /**
     * A text or blob read as an integer, as SQLite's {@code sqlite3Atoi64} reads it: leading white space, a sign and
     * the digits that follow, up to the first other character ({@code "12ms"} is 12, {@code "1.5"} is 1, {@code "x"}
     * is 0), saturated at the ends of the 64-bit range.
     */
    static long atoi64(byte[] b, int from, int length) {
        int i = from;
        int end = from + length;
        while (i < end && isSpace(b[i])) i++;
        boolean negative = false;
        if (i < end && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        while (i < end && b[i] == '0') i++;
        int digits = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') i++;
        int n = i - digits;
        if (n == 0) return 0;
        if (n > 19) return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        long u = Long.parseUnsignedLong(new String(b, digits, n, StandardCharsets.US_ASCII));
        if (negative) return Long.compareUnsigned(u, Long.MIN_VALUE) >= 0 ? Long.MIN_VALUE : -u;
        return u < 0 ? Long.MAX_VALUE : u;
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == 0x0b;
    }

    /** An integer read as text: its decimal digits, as SQLite writes them. */
    static byte[] integerText(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }

    /** A REAL read as text, as SQLite writes it (SQLite itself does: its format has rules of its own). */
    static byte[] realText(Connection c, double d) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT CAST(? AS TEXT)")) {
            ps.setDouble(1, d);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1).getBytes(StandardCharsets.UTF_8);
            }
        }
    }
}
