package dlproflint.extract.nsys;

import dlproflint.facts.Direction;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** NVTX message styles seen in real profiles. */
class MarkerTextTest {
    @Test
    void emitNvtxForwardAndBackward() {
        MarkerText f = MarkerText.of("aten::conv2d, seq = 0", false);
        assertEquals(MarkerText.Kind.ATEN, f.kind);
        assertEquals("aten::conv2d", f.name);
        assertEquals("conv2d", f.type);
        assertEquals(Direction.FPROP, f.direction);
        assertEquals(0, f.seq);
        MarkerText b = MarkerText.of("ConvolutionBackward0, seq = 3", false);
        assertEquals(MarkerText.Kind.ATEN, b.kind);
        assertEquals(Direction.BPROP, b.direction);
        assertEquals(3, b.seq);
        assertEquals(MarkerText.Kind.ATEN, MarkerText.of("aten::empty", false).kind);
    }

    /** The number's spellings, in the order they are looked for: stashed (PyTorch 1.0-1.4 backward), spaced, tight. */
    @Test
    void theSequenceNumberIsFoundWhicheverWayItIsSpelt() {
        assertEquals(18, MarkerText.seqSuffix("aten::add, seq = 3, stashed seq = 7"));
        assertEquals(8, MarkerText.seqSuffix("aten::mm, seq = 3, op_id = 4"));
        assertEquals(8, MarkerText.seqSuffix("aten::mm,seq=3"));
        assertEquals(13, MarkerText.seqSuffix("a,b,seq, x, y, seq = 2, z,seq = 1"));
        assertEquals(-1, MarkerText.seqSuffix("a, b, c"));
        assertEquals(-1, MarkerText.of("a, b, sequence", false).seq); // ", seq" begins it, but no number follows
        assertEquals(5, MarkerText.of("aten::add, seq = 3, stashed seq = 5", false).seq);
        assertEquals(3, MarkerText.of("aten::mm,seq=3", false).seq);
        // digits of other scripts are not PyTorch's: the text is a name without a number
        assertEquals(-1, MarkerText.of("aten::mm, seq = \u0663", false).seq);
    }

    @Test
    void dlprofPluginDictMarkers() {
        MarkerText op = MarkerText.of("{'mod': 'torch.nn.functional', 'op': 'conv2d', 'args': [{'name': '', 'type': 'tensor',"
                + " 'shape': (32, 3, 32, 32), 'dtype': 'float32'}, {'name': '', 'type': 'tensor', 'shape': (6, 3, 3, 3),"
                + " 'dtype': 'float32'}]}", false);
        assertEquals(MarkerText.Kind.DLPROF_OP, op.kind);
        assertEquals("conv2d", op.type);
        assertEquals("float32", op.dataType);
        assertEquals("<N:32, C:3, H:32, W:32>; <K:6, C:3, R:3, S:3>", op.inputShapes);
        MarkerText trace = MarkerText.of("{'traceMarker': ['net.py:42', '/usr/lib/python3.8/site-packages/torch/nn/modules/module.py:1102'], 'funcStack':"
                + " '/<module>/Net::forward/Conv2d::_call_impl(2)/<lambda>/conv2d'}", false);
        assertEquals(MarkerText.Kind.TRACE_MARKER, trace.kind);
        assertEquals("/module/Net::forward/Conv2d::_call_impl[2]/lambda/conv2d", trace.name);
        assertEquals("/usr/lib/python3.8/site-packages/torch/nn/modules/module.py", trace.stack.get(0).file(), "innermost first: the plugin lists the entry point first");
        assertEquals(new dlproflint.facts.StackFrame("net.py", 42, null), dlproflint.facts.StackFrames.firstUser(trace.stack));
    }

    @Test
    void modelConfigAndPlainText() {
        MarkerText cfg = MarkerText.of("{\"model_config\": {\"emit_nvtx\": true, \"num_workers\": 4}}", false);
        assertEquals(MarkerText.Kind.MODEL_CONFIG, cfg.kind);
        assertEquals(Boolean.TRUE, cfg.modelConfig.get("emit_nvtx"));
        MarkerText plain = MarkerText.of("layer_7_computation", true);
        assertEquals(MarkerText.Kind.PLAIN, plain.kind);
        assertEquals("layer_7_computation", plain.name);
        assertEquals(MarkerText.Kind.PLAIN, MarkerText.of("{not a dict", false).kind);
    }

    /**
     * The one-pass classification (issue 25) says what the lower-case copy and {@code contains} tests said, in
     * any case and at any place in the text.
     */
    @Test
    void classificationMatchesTheLowerCaseTests() {
        for (String t : java.util.List.of("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                "_MultiProcessingDataLoaderIter._next_data", "my DATA_LOADER step", "aten::conv2d, seq = 4",
                "DALI pipeline", "dali::decode", "Dali", "xDALIx", "cluster_3_1", "CLUSTER_x", "XlaLaunch",
                "my_xla_op", "aten::to, seq = 0", "", "d", "_next_dat", "dataloade", "ProfilerStep#12",
                "enumerate(dataLoader)", "text with DataLoader and XLA and DALI")) {
            MarkerText m = MarkerText.of(t, false);
            String l = t.toLowerCase(java.util.Locale.ROOT);
            boolean dataloader = l.contains("dataloader") || l.contains("_next_data") || l.contains("data_loader");
            assertEquals(dataloader, m.dataloader(), t + ": dataloader");
            assertEquals(dataloader, MarkerText.dataLoaderText(t), t + ": dataLoaderText");
            assertEquals(t.contains("DALI") || l.startsWith("dali"), m.dali(), t + ": dali");
            assertEquals(l.contains("xla") || l.startsWith("cluster_"), m.xla(), t + ": xla");
        }
    }

    /**
     * Issue 25: parsing each op name once gives what parsing every text gives - kind, name, type, direction, seq, the
     * text itself and its classification - for emit_nvtx texts of every variant, names that read as plain text,
     * classifications before and after the ", seq", leading blanks, and a map emptied at its bound.
     */
    @Test
    void parsingEachNameOnceGivesWhatParsingEveryTextGives() {
        java.util.List<String> names = java.util.List.of("aten::conv2d", "ConvolutionBackward0", "CudnnConvolutionBackward0",
                "autograd::engine::evaluate_function: AddmmBackward0", "aten::_to_copy", "my_op", "cluster_7", "DALI stage",
                "dali_reader", "xla_step", "enumerate(DataLoader)#next", "  aten::relu", "weird::name  ", "x_backward");
        java.util.List<String> suffixes = java.util.List.of(", seq = 0", ", seq = 17", ",seq=3", ", stashed seq = 5",
                ", seq = 12, op_id = 4, sizes = [[1, 2]]", ", seq = 9 xla", ", seq = 1, DataLoader", ", seq", ", seq = x", "");
        java.util.Map<String, MarkerText> byName = new java.util.HashMap<>();
        int n = 0;
        for (int round = 0; round < 2; round++) {
            for (String name : names) {
                for (String suffix : suffixes) {
                    String text = name + suffix;
                    MarkerText a = MarkerText.of(text, round == 1);
                    MarkerText b = MarkerText.of(text, round == 1, byName);
                    String what = "'" + text + "'";
                    assertEquals(a.kind, b.kind, what);
                    assertEquals(a.text(), b.text(), what);
                    assertEquals(a.registered, b.registered, what);
                    assertEquals(a.name, b.name, what);
                    assertEquals(a.type, b.type, what);
                    assertEquals(a.direction, b.direction, what);
                    assertEquals(a.seq, b.seq, what);
                    assertEquals(a.flags(), b.flags(), what);
                    n++;
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(byName.size() > 5 && byName.size() < names.size() * 2, "names kept: " + byName.size());
        for (int k = 0; k < MarkerText.MAX_NAMES + 10; k++) MarkerText.of("aten::op" + k + ", seq = 1", false, byName);
        org.junit.jupiter.api.Assertions.assertTrue(byName.size() <= MarkerText.MAX_NAMES, "bounded: " + byName.size());
        assertEquals(2 * names.size() * suffixes.size(), n);
    }

    /**
     * The one-pass parse of the common emit_nvtx text gives what the full parse gives, and leaves every other spelling
     * to it (null): blanks at either end, a comma in the name, another spelling of the number, a 19-digit number,
     * dict markers, names of every kind and script; its names are held within the bound.
     */
    @Test
    void theOnePassParseOfTheCommonTextGivesWhatTheFullParseGives() throws Exception {
        java.util.List<String> names = java.util.List.of("aten::conv2d", "ConvolutionBackward0", "x_backward", "my_op",
                "autograd::engine::evaluate_function: AddmmBackward0", "DALI stage", "enumerate(DataLoader)#next", "xla_step",
                "a, b", "  aten::relu", "aten::relu  ", "\u00e9t\u00e9::op", "{'op': 'x'}", "n");
        java.util.List<String> suffixes = java.util.List.of(", seq = 0", ", seq = 17", ", seq = 123456789012345678",
                ", seq = 1234567890123456789", ",seq = 3", ", seq =  4", ", seq = 5 ", ", stashed seq = 5", ", seq = 2, op_id = 1",
                ", seq = ", "");
        MarkerText.Parser parser = new MarkerText.Parser(null);
        MarkerText.EmitNvtxNames fast = new MarkerText.EmitNvtxNames();
        int onePass = 0;
        for (int round = 0; round < 2; round++) {
            for (String name : names) {
                for (String suffix : suffixes) {
                    String text = name + suffix;
                    MarkerText want = MarkerText.of(text, false);
                    MarkerText got = parser.parse(text, false, 0);
                    if (fast.parse(text) != null) onePass++;
                    String what = "'" + text + "'";
                    assertEquals(parse(want), parse(got), what);
                }
            }
        }
        // the canonical spellings: 10 names (not "a, b", blanks at an end, a dict) with 3 numbers, twice
        assertEquals(2 * 10 * 3, onePass);
        for (String other : java.util.List.of("aten::mm, seq = 1, op_id = 2", " aten::mm, seq = 1", "aten::mm,seq = 1",
                "aten::mm, seq = 1234567890123456789", "a, b, seq = 1", "aten::mm , seq = 1", ", seq = 1")) {
            org.junit.jupiter.api.Assertions.assertNull(fast.parse(other), other);
        }
        for (int k = 0; k < MarkerText.MAX_NAMES + 10; k++) {
            MarkerText m = fast.parse("aten::op" + k + ", seq = " + k);
            assertEquals("aten::op" + k, m.name);
            assertEquals(k, m.seq);
        }
    }
    /**
     * The parse of a text given as its UTF-8 bytes gives what the parse of the string gives, whatever the spelling;
     * without a string only for an ATEN op's range spelt exactly as PyTorch spells it (ASCII, the number without leading
     * zeros), whose text is spelt again, the same, when asked for; names met first as strings are found from bytes.
     */
    @Test
    void theParseOfATextsBytesGivesWhatTheParseOfItsStringGives() throws Exception {
        java.util.List<String> names = java.util.List.of("aten::conv2d", "ConvolutionBackward0", "x_backward", "my_op",
                "autograd::engine::evaluate_function: AddmmBackward0", "enumerate(DataLoader)#next", "aten::_dataloader_op",
                "a, b", "  aten::relu", "\u00e9t\u00e9::op", "aten::\u00e9", "n");
        java.util.List<String> suffixes = java.util.List.of(", seq = 0", ", seq = 17", ", seq = 007", ", seq = 00",
                ", seq = 123456789012345678", ", seq = 1234567890123456789", ",seq = 3", ", seq = 2, op_id = 1", "");
        MarkerText.Parser strings = new MarkerText.Parser(null);
        MarkerText.Parser bytes = new MarkerText.Parser(null);
        MarkerText.EmitNvtxNames fast = new MarkerText.EmitNvtxNames();
        int spelt = 0;
        for (int round = 0; round < 2; round++) {
            for (String name : names) {
                for (String suffix : suffixes) {
                    String text = name + suffix;
                    byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    MarkerText want = strings.parse(text, false, 0);
                    MarkerText got = bytes.parse(utf8, false, 0);
                    MarkerText canonical = fast.parse(utf8);
                    String what = "'" + text + "'";
                    if (canonical != null) {
                        spelt++;
                        org.junit.jupiter.api.Assertions.assertTrue(canonical.canonical(), what);
                        assertEquals(text, MarkerText.canonicalText(canonical.name, canonical.seq), what);
                    }
                    assertEquals(parse(want), parse(got), what);
                }
            }
        }
        // ATEN names in ASCII (aten::conv2d, ConvolutionBackward0, x_backward, the autograd function,
        // aten::_dataloader_op) with the numbers 0, 17 and the 18-digit one, twice
        assertEquals(2 * 5 * 3, spelt);
        // a name met first as a string is found from bytes (one parse of the name for both)
        MarkerText.EmitNvtxNames shared = new MarkerText.EmitNvtxNames();
        MarkerText fromString = shared.parse("aten::mm, seq = 1");
        MarkerText fromBytes = shared.parse("aten::mm, seq = 2".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        org.junit.jupiter.api.Assertions.assertSame(fromString.named, fromBytes.named);
        org.junit.jupiter.api.Assertions.assertNull(shared.parse((byte[]) null));
        org.junit.jupiter.api.Assertions.assertNull(shared.parse(new byte[0]));
    }

    /**
     * A text that is not the common emit_nvtx one is parsed once (its parse kept by its bytes, while it has no sequence
     * number) and found again from bytes in a larger buffer, as the spool's rows hold them; every parse is what a parse
     * of the text as a string gives, a text over the kept length and texts past the table's size too.
     */
    @Test
    void aTextSeenBeforeIsFoundByItsBytesAndParsesAsItsString() throws Exception {
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of("layer_0_computation", "ProfilerStep#12",
                "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "DALI pipeline", "cluster_7 xla run", "",
                "{'traceMarker': [{'module': 'conv1', 'file': 'model.py', 'line': 12}]}", "aten::mm, seq = 007",
                "aten::add, seq = 2, op_id = 1", "\u00e9t\u00e9 \u4e2d", "x".repeat(MarkerText.SeenTexts.MAX_LENGTH + 1)));
        for (int i = 0; i < 20_000; i++) texts.add("step_" + i); // more than the table holds: it starts over
        MarkerText.Parser parser = new MarkerText.Parser(null);
        byte[] buffer = new byte[4096];
        for (int round = 0; round < 2; round++) {
            for (String text : texts) {
                byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                java.util.Arrays.fill(buffer, (byte) 'z');
                System.arraycopy(utf8, 0, buffer, 0, utf8.length);
                MarkerText got = parser.parse(buffer, utf8.length, false, 0);
                assertEquals(parse(MarkerText.of(text, false)), parse(got), "'" + text + "' round " + round);
            }
        }
        // kept: the same parse for the same bytes
        byte[] step = "ProfilerStep#12".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertSame(parser.parse(step, false, 0), parser.parse(step.clone(), false, 0));
        // a text with a sequence number is not kept (each range its own number)
        byte[] seq = "aten::mm, seq = 007".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertNotSame(parser.parse(seq, false, 0), parser.parse(seq, false, 0));
    }

    /** What a parse says of a text, field by field. */
    private static java.util.List<Object> parse(MarkerText m) {
        return java.util.Arrays.asList(m.kind, m.text(), m.registered, m.name, m.type, m.direction, m.seq, m.flags());
    }
}
