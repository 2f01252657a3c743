package dlproflint.bench;

/**
 * The floor the nsys reader is held to: the {@code sqlite3} shell reading the kernel, CUDA runtime and NVTX
 * tables with every column the reader needs, each sorted ({@code ORDER BY}) on the process / correlation id /
 * start keys the correlation pass streams them in. The outer aggregates make SQLite deliver every row
 * without the cost of printing it; {@code EXPLAIN QUERY PLAN} shows "USE TEMP B-TREE FOR ORDER BY" for
 * each, so the sort is really done.
 */
final class NsysFloor {
    private NsysFloor() {
    }

    /**
     * The floor every nsys target is held to (issue 25): the three tables read and sorted with minimal columns, one
     * sort key each, so a reader cannot look good by being compared with a slow query.
     */
    static final String MINIMAL = """
            select sum(x) from (select correlationId x from CUPTI_ACTIVITY_KIND_KERNEL order by correlationId);
            select sum(x) from (select correlationId x from CUPTI_ACTIVITY_KIND_RUNTIME order by globalTid, start);
            select sum(s) from (select start s from NVTX_EVENTS order by globalTid, start);
            """;

    /** The older, wider floor (every column the reader needs), reported beside {@link #MINIMAL}. */
    static final String SQL = """
            SELECT count(*), total(e - s), total(d), total(n) FROM (
              SELECT (globalPid >> 24) & 16777215 AS p, correlationId AS c, start AS s, end AS e, deviceId AS d,
                     shortName AS n, demangledName, gridX, gridY, gridZ, blockX, blockY, blockZ
              FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY p, c, s);
            SELECT count(*), total(e - s), total(t), total(n) FROM (
              SELECT (globalTid >> 24) & 16777215 AS p, globalTid AS t, start AS s, end AS e, correlationId AS c,
                     nameId AS n
              FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY p, c, s);
            SELECT count(*), total(coalesce(e, s) - s), total(length(x)), total(i) FROM (
              SELECT (globalTid >> 24) & 16777215 AS p, globalTid AS t, start AS s, end AS e, text AS x,
                     textId AS i, eventType
              FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60) ORDER BY p, s, e DESC);
            """;
}
