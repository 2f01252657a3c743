package dlproflint.extract.dldb;

import dlproflint.extract.FileSniff;
import dlproflint.extract.ProfileException;
import dlproflint.extract.ProfileReader;
import dlproflint.extract.ReadOptions;
import dlproflint.extract.common.ReadOnlySqlite;
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

    @Override
    public String format() {
        return "dlprof-db";
    }

    @Override
    public boolean accepts(Path file, FileSniff sniff) throws ProfileException {
        if (!sniff.isSqlite()) return false;
        try (Connection c = ReadOnlySqlite.open(file)) {
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
        try (Connection c = ReadOnlySqlite.open(file)) {
            new DlprofInstanceStream(c).stream(sink);
        } catch (SQLException e) {
            throw new ProfileException(file, "cannot read DLProf database: " + ReadOnlySqlite.oneLine(e), e);
        }
    }

    @Override
    public ProfileFacts read(Path file, ReadOptions options) throws ProfileException {
        try (Connection c = ReadOnlySqlite.open(file)) {
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
            throw new ProfileException(file, "cannot read DLProf database: " + ReadOnlySqlite.oneLine(e), e);
        }
    }
}
