package dlproflint.reporters.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One headless Chromium page driven through the DevTools protocol over a WebSocket (no Playwright, no
 * WebDriver): navigate, evaluate JavaScript, click and type like a user (real input events), take
 * screenshots and print to PDF. Started by {@link HeadlessChromium#open} in tests or {@link #launch}; close it to
 * end the browser.
 */
public final class DevToolsPage implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final WebSocket socket;
    private final Path profile;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    private DevToolsPage(Process process, WebSocket socket, Path profile) {
        this.process = process;
        this.socket = socket;
        this.profile = profile;
    }

    /** Starts {@code binary} headless with a throw-away profile in {@code work} and a {@code width x height} window. */
    public static DevToolsPage launch(Path binary, Path work, int width, int height)
            throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(work, "chromium-profile");
        List<String> cmd = Chromium.command(binary, profile);
        cmd.addAll(List.of("--remote-debugging-port=0", "--window-size=" + width + "," + height, "--hide-scrollbars",
                "about:blank"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String browserUrl = null;
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        StringBuilder seen = new StringBuilder();
        String line;
        while (System.nanoTime() < deadline && (line = err.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                browserUrl = m.group(1);
                break;
            }
        }
        if (browserUrl == null) {
            p.destroyForcibly();
            throw new IOException("Chromium did not open a DevTools port: " + seen);
        }
        // keep draining stderr so the browser never blocks on a full pipe
        Thread drain = new Thread(() -> {
            try {
                while (err.readLine() != null) {
                    // discard
                }
            } catch (IOException ignored) {
                // the browser ended
            }
        }, "chromium-stderr");
        drain.setDaemon(true);
        drain.start();
        URI browser = URI.create(browserUrl);
        HttpClient http = HttpClient.newHttpClient();
        String pageUrl = null;
        for (int attempt = 0; attempt < 50 && pageUrl == null; attempt++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + browser.getHost() + ":"
                    + browser.getPort() + "/json/list")).build(), HttpResponse.BodyHandlers.ofString());
            for (JsonNode t : JSON.readTree(r.body())) {
                if ("page".equals(t.path("type").asText())) pageUrl = t.path("webSocketDebuggerUrl").asText();
            }
            if (pageUrl == null) Thread.sleep(100);
        }
        if (pageUrl == null) {
            p.destroyForcibly();
            throw new IOException("Chromium opened no page target");
        }
        Listener listener = new Listener();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(pageUrl), listener).join();
        DevToolsPage page = new DevToolsPage(p, ws, profile);
        listener.page = page;
        page.call("Page.enable", JSON.createObjectNode());
        page.call("Runtime.enable", JSON.createObjectNode());
        return page;
    }

    private static final class Listener implements WebSocket.Listener {
        private final StringBuilder buffer = new StringBuilder();
        DevToolsPage page;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            buffer.append(data);
            if (last) {
                String msg = buffer.toString();
                buffer.setLength(0);
                try {
                    JsonNode n = JSON.readTree(msg);
                    if (n.has("id")) {
                        CompletableFuture<JsonNode> f = page.pending.remove(n.get("id").asInt());
                        if (f != null) f.complete(n);
                    } else {
                        page.events.add(n);
                    }
                } catch (IOException e) {
                    // not JSON: ignore
                }
            }
            ws.request(1);
            return null;
        }
    }

    /** Sends a DevTools command and waits for its result; fails on a protocol error. */
    public JsonNode call(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> f = new CompletableFuture<>();
        pending.put(id, f);
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", params);
        socket.sendText(msg.toString(), true).join();
        JsonNode r;
        try {
            r = f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(method + " got no answer: " + e, e);
        }
        if (r.has("error")) throw new IllegalStateException(method + ": " + r.get("error"));
        return r.path("result");
    }

    /** Opens {@code url} and waits for its load event. */
    public void navigate(String url) {
        events.clear();
        call("Page.navigate", JSON.createObjectNode().put("url", url));
        waitFor(() -> events.stream().anyMatch(e -> "Page.loadEventFired".equals(e.path("method").asText())),
                "load of " + url);
    }

    /** Evaluates {@code expression} in the page (promises awaited) and returns its JSON value. */
    public JsonNode eval(String expression) {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) throw new IllegalStateException("page threw: " + r.get("exceptionDetails"));
        return r.path("result").path("value");
    }

    public String evalString(String expression) {
        return eval(expression).asText();
    }

    public int evalInt(String expression) {
        return eval(expression).asInt();
    }

    /** Clicks the centre of the first element matching {@code selector} with real mouse events. */
    public void click(String selector) {
        JsonNode box = eval("(function(){var e=document.querySelector(" + quote(selector) + ");if(!e)return null;"
                + "e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
                + "return {x:r.left+r.width/2,y:r.top+r.height/2};})()");
        if (box.isNull() || box.isMissingNode()) throw new IllegalStateException("nothing matches " + selector);
        for (String type : List.of("mousePressed", "mouseReleased")) {
            call("Input.dispatchMouseEvent", JSON.createObjectNode().put("type", type).put("x", box.get("x").asDouble())
                    .put("y", box.get("y").asDouble()).put("button", "left").put("clickCount", 1));
        }
    }

    /** Focuses the first element matching {@code selector} and types {@code text} as key presses. */
    public void type(String selector, String text) {
        eval("document.querySelector(" + quote(selector) + ").focus()");
        call("Input.insertText", JSON.createObjectNode().put("text", text));
    }

    /** Presses a key on the focused element: {@code Enter}, {@code Tab}, {@code ArrowDown}, {@code " "}... */
    public void press(String key) {
        String code = switch (key) {
            case "Enter" -> "Enter";
            case "Tab" -> "Tab";
            case " " -> "Space";
            default -> key;
        };
        int vk = switch (key) {
            case "Enter" -> 13;
            case "Tab" -> 9;
            case " " -> 32;
            case "ArrowDown" -> 40;
            case "ArrowUp" -> 38;
            default -> 0;
        };
        ObjectNode down = JSON.createObjectNode().put("type", "keyDown").put("key", key).put("code", code)
                .put("windowsVirtualKeyCode", vk);
        if (key.equals("Enter")) down.put("text", "\r");
        if (key.equals(" ")) down.put("text", " ");
        call("Input.dispatchKeyEvent", down);
        call("Input.dispatchKeyEvent", JSON.createObjectNode().put("type", "keyUp").put("key", key).put("code", code)
                .put("windowsVirtualKeyCode", vk));
    }

    /** A PNG of the viewport, or of the whole page when {@code fullPage}. */
    public void screenshot(Path png, boolean fullPage) throws IOException {
        ObjectNode params = JSON.createObjectNode().put("format", "png");
        if (fullPage) params.put("captureBeyondViewport", true);
        if (fullPage) {
            JsonNode size = eval("({w:document.documentElement.scrollWidth,h:Math.min(16000,document.documentElement.scrollHeight)})");
            params.putObject("clip").put("x", 0).put("y", 0).put("width", size.get("w").asDouble())
                    .put("height", size.get("h").asDouble()).put("scale", 1);
        }
        Files.write(png, Base64.getDecoder().decode(call("Page.captureScreenshot", params).get("data").asText()));
    }

    /** Prints the page as Chromium's print dialog would (print stylesheet, A4), to {@code pdf}. */
    public void printToPdf(Path pdf) throws IOException {
        ObjectNode params = JSON.createObjectNode().put("printBackground", false).put("paperWidth", 8.27)
                .put("paperHeight", 11.69).put("preferCSSPageSize", true);
        Files.write(pdf, Base64.getDecoder().decode(call("Page.printToPDF", params).get("data").asText()));
    }

    /** Waits (polling) until {@code condition} holds. */
    public void waitFor(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new IllegalStateException("timed out waiting for " + what);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Console messages and uncaught exceptions the page reported. */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        for (JsonNode e : events) {
            String m = e.path("method").asText();
            if (m.equals("Runtime.exceptionThrown")) out.add(e.path("params").path("exceptionDetails").toString());
            if (m.equals("Runtime.consoleAPICalled") && "error".equals(e.path("params").path("type").asText())) {
                out.add(e.path("params").path("args").toString());
            }
        }
        return out;
    }

    /** A JavaScript string literal. */
    public static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // closing anyway
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Chromium.deleteTree(profile);
    }
}
