package dlproflint.extract.dldb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The two ways the DLProf-database classes read rows: every row of a query, or one number. */
final class Rows {
    interface Handler {
        void row(ResultSet rs) throws SQLException;
    }

    private Rows() {
    }

    static void each(Connection c, String sql, Handler handler) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) handler.row(rs);
        }
    }

    /** The first column of the first row, or {@code fallback} when there is none or it is NULL. */
    static long number(Connection c, String sql, long fallback) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return fallback;
            long v = rs.getLong(1);
            return rs.wasNull() ? fallback : v;
        }
    }
}
