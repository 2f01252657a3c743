package dlproflint.extract.dldb;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.ReadOnlySqlite;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/** Reads a DLProf 1.x {@code dlprof_dldb.sqlite} into facts. */
public final class DlprofDatabaseReader implements ProfileReader {
    /** The DLProf database versions whose schema we know (1.8.0 observed; 1.x kept the same layout). */
    static final String SUPPORTED_MAJOR = "1.";
    /** The prefix of every view DLProf 1.x writes into its database. */
    static final String DLPROF_VIEW_PREFIX = "view_";

    @Override
    public String format() {
        return "dlprof-db";
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) throws ProfileException {
        if (!sniff.isSqlite()) return false;
        try (Connection c = ReadOnlySqlite.open(file, ReadDeadline.start(file, null))) {
            return ReadOnlySqlite.hasTable(c, "db_version") && ReadOnlySqlite.hasTable(c, "read_only_ops");
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        ReadDeadline deadline = ReadDeadline.start(file, options);
        try (Connection c = ReadOnlySqlite.open(file, deadline)) {
            refuseForeignViews(file, c);
            String version = ReadOnlySqlite.string(c, "SELECT current_version FROM db_version ORDER BY id DESC LIMIT 1");
            if (version == null || !version.startsWith(SUPPORTED_MAJOR)) {
                throw new ProfileException(file, "unsupported DLProf database version " + version
                        + " (supported: 1.x, written by DLProf 1.0-1.8)");
            }
            return new DlprofFactsLoader(c, file, version, options).load();
        } catch (SQLException e) {
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message(), e);
            throw new ProfileException(file, "cannot read DLProf database: " + ReadOnlySqlite.oneLine(e), e);
        }
    }

    /**
     * DLProf defines its own views, all named {@code view_*}, which the reader never queries; any other view
     * stands in for a table the reader would query, running whatever the view holds (a recursive query
     * for ever), so the file is refused.
     */
    private static void refuseForeignViews(Path file, Connection c) throws SQLException, ProfileException {
        for (String v : ReadOnlySqlite.views(c)) {
            if (!v.startsWith(DLPROF_VIEW_PREFIX)) {
                throw new ProfileException(file, v + " is a view, not a table: a DLProf database defines only "
                        + DLPROF_VIEW_PREFIX + "* views, and a view can run an arbitrarily long query; refusing to read it");
            }
        }
    }
}
