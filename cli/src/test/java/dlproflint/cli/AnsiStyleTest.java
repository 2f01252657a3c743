package dlproflint.cli;

import dlproflint.findings.Severity;
import dlproflint.reporters.text.TextStyle;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class AnsiStyleTest {
    @Test
    void writesPicocliMarkupEscapesWithoutParsingTheText() {
        TextStyle on = AnsiStyle.of(true);
        assertEquals(CommandLine.Help.Ansi.ON.string("@|bold,red ERROR|@"), on.severity(Severity.ERROR, "ERROR"),
                "the bytes picocli's own markup gives");
        assertEquals("\u001b[1m\u001b[33mwarn\u001b[39m\u001b[21m\u001b[0m", on.severity(Severity.WARNING, "warn"));
        assertEquals("\u001b[2mx\u001b[22m\u001b[0m", on.dim("x"));
        assertEquals("\u001b[1m@|red y|@\u001b[21m\u001b[0m", on.bold("@|red y|@"), "profile text is never markup");
        assertEquals("plain", on.severity(null, "plain"));
        assertSame(TextStyle.PLAIN, AnsiStyle.of(false));
    }
}
