/**
 * The format-neutral fact model: what every reader (nsys SQLite, DLProf database, Kineto trace)
 * produces and what every rule pack matches on. This package is public API for rule authors:
 * facts are immutable records, times are nanoseconds ({@code long}), percentages are 0..100.
 * Nothing here holds one object per kernel launch; readers aggregate while streaming.
 */
package dlproflint.facts;
