package dlproflint.reporters.dlprof;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Exact CSV text of each DLProf report for the hand-built {@link Fixtures} profile. */
class DlprofCsvReportsTest {
    private static final String STATS_HEADER = "Total CPU Time (ns),Avg. CPU Time (ns),Min CPU Time (ns),Max CPU Time (ns),"
            + "Total GPU Time (ns),Avg. GPU Time (ns),Min GPU Time (ns),Max GPU Time (ns),"
            + "Total CPU Overhead (ns),Avg. CPU Overhead (ns),Min CPU Overhead (ns),Max CPU Overhead (ns),"
            + "Total GPU Idle (ns),Avg. GPU Idle (ns),Min GPU Idle (ns),Max GPU Idle (ns)";

    @Test
    void summaryHasDlprofSectionsRowsAndRounding() throws Exception {
        String expected = """
                System Config
                GPU Count,2
                GPU Name(s),NVIDIA A100-SXM4-40GB, NVIDIA A100-SXM4-40GB
                CPU Model,AMD EPYC 7402 24-Core Processor
                GPU Driver Version,510.47.03
                Framework,PyTorch 1.11.0a0+b6df043
                CUDA Version,11.6
                cuDNN Version,8.3.0
                NSys Version,2021.3.2.4-027534f

                Summary Report
                Wall Clock Time (ns),46915098532
                Tensor Core Kernel Utilization %,35.4
                GPU Utilization %,0.1
                Tensor Core Kernel Duration %,0.0
                Non-Tensor Core Kernel Duration %,0.0
                Memory Duration %,0.0
                Dataloader Duration %,21.9
                IO Duration %,0.0
                CPU Duration %,1.0
                Other Duration %,76.9

                Iterations
                Total Iterations,939
                Aggregated Iterations,201
                Start Iteration,200
                Stop Iteration,400
                Average Iteration Time (ns),233408450.4
                Iteration Time Standard Deviation,13499191.3

                All Ops
                ,GPU Time (ns),CPU Time (ns),# Ops
                All ops,322947,2855311,6
                Ops using TC,13632,544897,1
                Ops eligible for TC but not using,309276,2306368,1
                All other ops,39,4046,4

                All Kernels
                ,GPU Time (ns),CPU Time (ns),# Kernels
                All kernels,183523,253757,8
                Kernels using TC,6752,7864,1
                Memory,66690,166853,3
                All other kernels,110081,79040,4
                """;
        assertEquals(expected, Fixtures.csv(new SummaryReport(Fixtures.facts())));
    }

    @Test
    void summaryLeavesOutUnknownCudnnAndJoinsFrameworkVersionOnce() throws Exception {
        var facts = Fixtures.builder()
                .system(new dlproflint.facts.SystemInfo("cpu, with comma", null, "515.43.04", "11.7", null,
                        "pytorch", "PyTorch 1.10.1+cu102", -1, 0))
                .build();
        String csv = Fixtures.csv(new SummaryReport(facts));
        assertEquals(false, csv.contains("cuDNN"));
        // DLProf leaves summary values bare even when they hold commas
        assertEquals(true, csv.contains("\nCPU Model,cpu, with comma\n"));
        assertEquals(true, csv.contains("\nFramework,PyTorch 1.10.1+cu102\n"));
    }

    @Test
    void detailedQuotesTextColumnsAndPrintsStackTracesOnSeveralLines() throws Exception {
        String expected = "All Iterations\n"
                + "Op ID,Op Name,Direction,Op Type,No. Calls,TC Eligible,Using TC," + STATS_HEADER + ",Data Type,Stack Trace\n"
                + """
                "CONV2D_1","/module/Net::forward/Conv2d::_call_impl/conv2d",fprop,"conv2d",1,yes,no,2306368,2306368.0,2306368,2306368,309276,309276.0,309276,309276,765282,765282.0,765282,765282,1674141,1674141.0,1674141,1674141,float32,"dummy_network.py:42
                /x/torch/nn/modules/module.py:1102"
                "CUDADEVICESYNCHRONIZE_V3020_1","unassociated_cudaDeviceSynchronize_v3020",,"cudaDeviceSynchronize_v3020",1,no,no,3686,3686.0,3686,3686,0,0.0,0,0,0,0.0,0,0,0,0.0,0,0,,""
                "LINEAR_1","/module/Net::forward/Linear::_call_impl/linear",fprop,"linear",1,yes,yes,544897,544897.0,544897,544897,13632,13632.0,13632,13632,411203,411203.0,411203,411203,343775,343775.0,343775,343775,float16,"net.py:28"
                "RELU_1","/module/Net::forward/relu",fprop,"relu",2,no,no,300,150.0,100,200,31,15.5,10,21,269,134.5,90,179,0,0.0,0,0,float32,"a.py:1"
                "RELU_2","/module/Net::forward/relu[2]",fprop,"relu",1,no,no,50,50.0,50,50,8,8.0,8,8,40,40.0,40,40,0,0.0,0,0,float32,"a.py:2"
                "WEIRD_1","/module/say ""hi"", there/x",bprop,"custom",3,no,no,10,3.3,3,4,0,0.0,0,0,10,3.3,3,4,0,0.0,0,0,"float16,float32","x.py
                y.py:7"
                """;
        assertEquals(expected, Fixtures.csv(new DetailedReport(Fixtures.facts())));
    }

    @Test
    void detailedTensorflowLayoutHasNoOpIdDirectionOrStack() throws Exception {
        var facts = Fixtures.builder()
                .system(new dlproflint.facts.SystemInfo(null, null, null, null, null, "tensorflow", "1.15", -1, 0))
                .build();
        String csv = Fixtures.csv(new DetailedReport(facts));
        String[] lines = csv.split("\n");
        assertEquals("Op Name,Op Type,No. Calls,TC Eligible,Using TC," + STATS_HEADER + ",Data Type,Input Shapes", lines[1]);
        // sorted by op name; TF1 prints the op type bare
        assertEquals("\"/module/Net::forward/Conv2d::_call_impl/conv2d\",conv2d,1,yes,no,2306368,2306368.0,2306368,2306368,"
                + "309276,309276.0,309276,309276,765282,765282.0,765282,765282,1674141,1674141.0,1674141,1674141,float32,\"\"",
                lines[2]);
    }

    @Test
    void kernelReportMergesDevicesSkipsMemoryAndSortsByOpThenName() throws Exception {
        String expected = """
                Kernel Report
                Kernel Name,Op ID,Op Name,Direction,Uses TC,Total GPU Time (ns),Avg GPU Time (ns),Min GPU Time (ns),Max GPU Time (ns),Total API Time (ns),Avg API Time (ns),Min API Time (ns),Max API Time (ns)
                "fft2d_r2c_32x32","CONV2D_1","/module/Net::forward/Conv2d::_call_impl/conv2d",fprop,no,40926,10231.5,9599,10848,22024,5506.0,3866,8324
                "implicit_convolve_sgemm","CONV2D_1","/module/Net::forward/Conv2d::_call_impl/conv2d",fprop,no,65439,21813.0,21504,21984,32059,10686.3,6868,17748
                "unrolled_elementwise_kernel","LINEAR_1","/module/Net::forward/Linear::_call_impl/linear",fprop,no,3680,3680.0,3680,3680,8857,8857.0,8857,8857
                "volta_h884gemm_64x64_nt","LINEAR_1","/module/Net::forward/Linear::_call_impl/linear",fprop,yes,6752,6752.0,6752,6752,7864,7864.0,7864,7864
                "vectorized_elementwise_kernel","RELU_1","/module/Net::forward/relu",fprop,no,36,12.0,5,21,16100,5366.7,100,9000
                """;
        assertEquals(expected, Fixtures.csv(new KernelReport(Fixtures.facts())));
    }

    @Test
    void tensorCoreReportListsEligibleOpsWithSortedKernelNames() throws Exception {
        String expected = """
                Tensor Core Report
                Op ID,Op Name,Direction,Op Type,Uses TC,Total GPU Time (ns),TC GPU Time (ns),Non-TC GPU Time (ns),TC Utilization (%),Total Kernel Count,TC Kernel Count,TC Kernel Names,Non-TC Kernel Count,Non-TC Kernel Names
                "CONV2D_1","/module/Net::forward/Conv2d::_call_impl/conv2d",fprop,"conv2d",no,106365,0,106365,0.0,2,0,"",2,"fft2d_r2c_32x32, implicit_convolve_sgemm"
                "LINEAR_1","/module/Net::forward/Linear::_call_impl/linear",fprop,"linear",yes,10432,6752,3680,64.7,2,1,"volta_h884gemm_64x64_nt",1,"unrolled_elementwise_kernel"
                """;
        assertEquals(expected, Fixtures.csv(new TensorCoreReport(Fixtures.facts())));
    }

    @Test
    void opTypeReportRollsUpOpsPerType() throws Exception {
        String expected = "Op Type Summary Report\n"
                + "Op Type,# Ops,# Calls," + STATS_HEADER + "\n"
                + """
                "conv2d",1,1,2306368,2306368.0,2306368,2306368,309276,309276.0,309276,309276,765282,765282.0,765282,765282,1674141,1674141.0,1674141,1674141
                "cudaDeviceSynchronize_v3020",1,1,3686,3686.0,3686,3686,0,0.0,0,0,0,0.0,0,0,0,0.0,0,0
                "custom",1,3,10,3.3,3,4,0,0.0,0,0,10,3.3,3,4,0,0.0,0,0
                "linear",1,1,544897,544897.0,544897,544897,13632,13632.0,13632,13632,411203,411203.0,411203,411203,343775,343775.0,343775,343775
                "relu",2,3,350,116.7,50,200,39,13.0,8,21,309,103.0,40,179,0,0.0,0,0
                """;
        assertEquals(expected, Fixtures.csv(new OpTypeReport(Fixtures.facts())));
    }

    @Test
    void groupOpReportBuildsModuleHierarchyFromOpNames() throws Exception {
        String expected = "Group Op Report\n"
                + "Name,Num Calls Aggregated,Num TC Eligible Ops,Num Ops Using TC," + STATS_HEADER + "\n"
                + """
                "/",8,2,1,2851625,2851625.0,2851625,2851625,322947,322947.0,322947,322947,1176804,1176804.0,1176804,1176804,2017916,2017916.0,2017916,2017916
                "/module/",8,2,1,2851625,2851625.0,2851625,2851625,322947,322947.0,322947,322947,1176804,1176804.0,1176804,1176804,2017916,2017916.0,2017916,2017916
                "/module/Net::forward/",5,2,1,2851615,2851615.0,2851615,2851615,322947,322947.0,322947,322947,1176794,1176794.0,1176794,1176794,2017916,2017916.0,2017916,2017916
                "/module/Net::forward/Conv2d::_call_impl/",1,1,0,2306368,2306368.0,2306368,2306368,309276,309276.0,309276,309276,765282,765282.0,765282,765282,1674141,1674141.0,1674141,1674141
                "/module/Net::forward/Linear::_call_impl/",1,1,1,544897,544897.0,544897,544897,13632,13632.0,13632,13632,411203,411203.0,411203,411203,343775,343775.0,343775,343775
                "/module/say ""hi"", there/",3,0,0,10,10.0,10,10,0,0.0,0,0,10,10.0,10,10,0,0.0,0,0
                "_CompleteModel_",9,2,1,2855311,2855311.0,2855311,2855311,322947,322947.0,322947,322947,1176804,1176804.0,1176804,1176804,2017916,2017916.0,2017916,2017916
                """;
        assertEquals(expected, Fixtures.csv(new GroupOpReport(Fixtures.oneIteration())));
    }

    @Test
    void groupOpAveragesPerAggregatedIteration() throws Exception {
        // 201 aggregated iterations: the per-iteration average is total / 201
        String csv = Fixtures.csv(new GroupOpReport(Fixtures.facts()));
        String line = csv.lines().filter(l -> l.startsWith("\"/module/Net::forward/Linear")).findFirst().orElseThrow();
        assertEquals("\"/module/Net::forward/Linear::_call_impl/\",1,1,1,544897,2710.9,2711,2711,13632,67.8,68,68,"
                + "411203,2045.8,2046,2046,343775,1710.3,1710,1710", line);
    }

    @Test
    void emptyProfileStillHasEverySectionAndHeader() throws Exception {
        var facts = dlproflint.facts.ProfileFacts.builder()
                .profile(new dlproflint.facts.ProfileInfo("e.sqlite", "nsys-sqlite", null, null, 0, 0)).build();
        assertEquals("Kernel Report\nKernel Name,Op ID,Op Name,Direction,Uses TC,Total GPU Time (ns),Avg GPU Time (ns),"
                + "Min GPU Time (ns),Max GPU Time (ns),Total API Time (ns),Avg API Time (ns),Min API Time (ns),Max API Time (ns)\n",
                Fixtures.csv(new KernelReport(facts)));
        String summary = Fixtures.csv(new SummaryReport(facts));
        assertEquals(true, summary.contains("GPU Count,0\nGPU Name(s),\nCPU Model,\n"));
        assertEquals(true, summary.endsWith("All other kernels,0,0,0\n"));
        assertEquals("Group Op Report", Fixtures.csv(new GroupOpReport(facts)).lines().findFirst().orElseThrow());
    }
}
