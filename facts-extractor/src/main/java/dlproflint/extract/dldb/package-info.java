/**
 * Reader for DLProf 1.x databases ({@code dlprof_dldb.sqlite}). DLProf already aggregated the
 * profile: ops, kernels, iterations and its summary are read from its tables (joined through
 * {@code dictionary} and {@code metric}) rather than recomputed. Views are not used: at least one
 * real database in the wild has a tampered view ({@code view_op_nodes}).
 */
package dlproflint.extract.dldb;
