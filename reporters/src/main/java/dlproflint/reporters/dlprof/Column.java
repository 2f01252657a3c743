package dlproflint.reporters.dlprof;

/** One column of a DLProf table: its header text as DLProf prints it and how its values print. */
record Column(String header, CellType type) {
    static Column quoted(String header) {
        return new Column(header, CellType.QUOTED);
    }

    static Column bare(String header) {
        return new Column(header, CellType.BARE);
    }

    static Column integer(String header) {
        return new Column(header, CellType.INT);
    }

    static Column decimal(String header) {
        return new Column(header, CellType.DECIMAL);
    }

    static Column yesNo(String header) {
        return new Column(header, CellType.YES_NO);
    }
}
