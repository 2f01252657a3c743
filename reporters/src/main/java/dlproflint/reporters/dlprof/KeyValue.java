package dlproflint.reporters.dlprof;

/** One row of a key/value section of the summary report ({@code Wall Clock Time (ns),2840562182}). */
record KeyValue(String name, Object value, CellType type) {
    static KeyValue line(String name, String value) {
        return new KeyValue(name, value, CellType.LINE);
    }

    static KeyValue integer(String name, long value) {
        return new KeyValue(name, value, CellType.INT);
    }

    static KeyValue decimal(String name, double value) {
        return new KeyValue(name, value, CellType.DECIMAL);
    }
}
