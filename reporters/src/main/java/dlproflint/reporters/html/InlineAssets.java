package dlproflint.reporters.html;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The report's own stylesheet and script, inlined, and the Content-Security-Policy that allows
 * exactly these two by their SHA-256 hashes. Any other inline script, event handler attribute or
 * style attribute (say, one smuggled in through a name that escaping somehow missed) is refused by
 * the browser, and {@code default-src 'none'} stops every network request.
 */
public record InlineAssets(String css, String js, String contentSecurityPolicy) {
    private static final String BASE = "/dlproflint/reporters/html/";

    public static InlineAssets load() {
        String css = resource("report.css");
        String js = resource("report.js");
        String csp = "default-src 'none'; style-src '" + sha256(css) + "'; script-src '" + sha256(js)
                + "'; img-src data:; base-uri 'none'; form-action 'none'";
        return new InlineAssets(css, js, csp);
    }

    /** {@code sha256-<base64>} of the UTF-8 bytes, the CSP hash-source syntax. */
    public static String sha256(String content) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = InlineAssets.class.getResourceAsStream(BASE + name)) {
            if (in == null) throw new IllegalStateException("missing resource " + BASE + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
