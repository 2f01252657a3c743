/**
 * Profile readers. {@link dlproflint.extract.ProfileReaders} detects the format from the file's
 * content and hands it to the matching {@link dlproflint.extract.ProfileReader}; every reader opens
 * its input read-only and reports unusable input as a {@link dlproflint.extract.ProfileException}.
 */
package dlproflint.extract;
