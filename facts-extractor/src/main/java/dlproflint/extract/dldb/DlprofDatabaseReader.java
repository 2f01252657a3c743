package dlproflint.extract.dldb;

import dlproflint.findings.OneLine;
import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.ReadDeadline;
import dlproflint.extract.common.ReadOnlySqlite;
import dlproflint.extract.common.SqliteContent;
import dlproflint.facts.InstanceSink;
import dlproflint.facts.ProfileFacts;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reads a DLProf 1.x {@code dlprof_dldb.sqlite} into facts: live captures and re-analyses of nsys exports,
 * PyTorch and TensorFlow 1/2 modes; tables a database lacks are read around and named in a warning.
 */
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
            // db_version is DLProf's marker; a database without it (the viewer calls it "version not found")
            // is still DLProf's when it has DLProf's op and aggregate tables
            return ReadOnlySqlite.hasTable(c, "read_only_ops") && (ReadOnlySqlite.hasTable(c, "db_version")
                    || ReadOnlySqlite.hasTable(c, "op_nodes") || ReadOnlySqlite.hasTable(c, "model_summary"));
        } catch (SQLException e) {
            return false;
        }
    }

    /** DLProf's kernel, copy and set rows with their ops and iterations; nothing for a database without kernel rows. */
    @Override
    public void streamInstances(Path file, ReadOptions options, InstanceSink sink) throws ProfileException {
        ReadDeadline deadline = ReadDeadline.start(file, options);
        try (Connection c = ReadOnlySqlite.open(file, deadline)) {
            refuseForeignViews(file, c);
            new DlprofInstanceStream(c).stream(sink);
        } catch (SQLException e) {
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message(), e);
            throw new ProfileException(file, "cannot read DLProf database: " + OneLine.of(e), e);
        }
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        ReadDeadline deadline = ReadDeadline.start(file, options);
        try (Connection c = ReadOnlySqlite.open(file, deadline)) {
            refuseForeignViews(file, c);
            // no db_version table: a DLProf that did not write one (the viewer's "version not found"), read as 1.x;
            // a db_version table without its row is a damaged database
            boolean versioned = ReadOnlySqlite.hasTable(c, "db_version");
            String version = versioned
                    ? ReadOnlySqlite.string(c, "SELECT current_version FROM db_version ORDER BY id DESC LIMIT 1") : "(version not recorded)";
            if (version == null) {
                throw new ProfileException(file, "DLProf database without a version row (db_version is empty): "
                        + "damaged, or not written by DLProf");
            }
            if (versioned && !version.startsWith(SUPPORTED_MAJOR)) {
                throw new ProfileException(file, "unsupported DLProf database version " + version
                        + " (supported: 1.x, written by DLProf 1.0-1.8)");
            }
            if (!ReadOnlySqlite.hasTable(c, "dictionary")) {
                // every name (ops, kernels, types, shapes) is an id into it: nothing can be named without it
                throw new ProfileException(file, "DLProf database without its dictionary table: damaged or incomplete");
            }
            return new DlprofFactsLoader(c, file, version, options).load();
        } catch (SQLException e) {
            if (ReadOnlySqlite.interrupted(e)) throw new ProfileException(file, deadline.message(), e);
            throw new ProfileException(file, "cannot read DLProf database: " + OneLine.of(e), e);
        }
    }

    /**
     * DLProf defines its own views, all named {@code view_*}, which the reader never queries; any other view
     * stands in for a table the reader would query, running whatever the view holds (a recursive query
     * for ever), so the file is refused.
     */
    private static void refuseForeignViews(Path file, Connection c) throws SQLException, ProfileException {
        String content = SqliteContent.problem(c, java.util.List.<String[]>of(new String[] {"dictionary", "string"}));
        if (content != null) throw new ProfileException(file, content);
        for (String v : ReadOnlySqlite.views(c)) {
            if (!v.startsWith(DLPROF_VIEW_PREFIX)) {
                throw new ProfileException(file, v + " is a view, not a table: a DLProf database defines only "
                        + DLPROF_VIEW_PREFIX + "* views, and a view can run an arbitrarily long query; refusing to read it");
            }
        }
    }
}
