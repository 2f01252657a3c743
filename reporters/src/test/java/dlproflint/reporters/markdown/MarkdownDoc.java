package dlproflint.reporters.markdown;

import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Node;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

import java.util.ArrayList;
import java.util.List;

/**
 * A markdown report parsed by a real CommonMark parser with GitHub's table extension, for tests that must
 * see what a reader sees: tables with their cells' text, links, raw HTML, and formatting that a profile
 * string could have smuggled in. Shared through the reporters test-jar (the CLI's injection tests use it).
 */
public final class MarkdownDoc {
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());

    public record Link(String destination, String text) {
    }

    private final Node document;

    private MarkdownDoc(Node document) {
        this.document = document;
    }

    public static MarkdownDoc parse(String markdown) {
        return new MarkdownDoc(Parser.builder().extensions(EXTENSIONS).build().parse(markdown));
    }

    /** Every table as rows of cell texts (header row first), in document order. */
    public List<List<List<String>>> tables() {
        List<List<List<String>>> tables = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.CustomBlock block) {
                if (block instanceof TableBlock) {
                    List<List<String>> rows = new ArrayList<>();
                    for (Node part = block.getFirstChild(); part != null; part = part.getNext()) {
                        if (!(part instanceof TableHead) && !(part instanceof TableBody)) continue;
                        for (Node row = part.getFirstChild(); row != null; row = row.getNext()) {
                            if (!(row instanceof TableRow)) continue;
                            List<String> cells = new ArrayList<>();
                            for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
                                if (cell instanceof TableCell) cells.add(text(cell));
                            }
                            rows.add(cells);
                        }
                    }
                    tables.add(rows);
                }
                super.visit(block);
            }
        });
        return tables;
    }

    public List<Link> links() {
        List<Link> links = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Link link) {
                links.add(new Link(link.getDestination(), text(link)));
                super.visit(link);
            }
        });
        return links;
    }

    /** Literal raw HTML the renderer would pass through (blocks and inline). */
    public List<String> rawHtml() {
        List<String> html = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(HtmlBlock b) {
                html.add(b.getLiteral().strip());
            }

            @Override
            public void visit(HtmlInline i) {
                html.add(i.getLiteral());
            }
        });
        return html;
    }

    /** Emphasis, code spans and images anywhere in a table: nothing in our tables is formatted, so any is injected. */
    public List<String> formattingInTables() {
        List<String> found = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.CustomBlock block) {
                if (block instanceof TableBlock) {
                    block.accept(new AbstractVisitor() {
                        @Override
                        public void visit(Emphasis e) {
                            found.add("emphasis: " + text(e));
                        }

                        @Override
                        public void visit(StrongEmphasis e) {
                            found.add("strong: " + text(e));
                        }

                        @Override
                        public void visit(Code c) {
                            found.add("code: " + c.getLiteral());
                        }

                        @Override
                        public void visit(Image i) {
                            found.add("image: " + i.getDestination());
                        }
                    });
                }
            }
        });
        return found;
    }

    public String html() {
        return HtmlRenderer.builder().extensions(EXTENSIONS).build().render(document);
    }

    /** A node's text as a reader sees it (escapes and entities resolved). */
    static String text(Node n) {
        StringBuilder b = new StringBuilder();
        n.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                b.append(t.getLiteral());
            }

            @Override
            public void visit(Code c) {
                b.append(c.getLiteral());
            }

            @Override
            public void visit(SoftLineBreak s) {
                b.append('\n');
            }

            @Override
            public void visit(HardLineBreak h) {
                b.append('\n');
            }

            @Override
            public void visit(HtmlInline h) {
                b.append(h.getLiteral());
            }
        });
        return b.toString();
    }
}
