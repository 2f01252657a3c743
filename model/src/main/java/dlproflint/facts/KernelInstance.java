package dlproflint.facts;

/**
 * One kernel, memcpy or memset execution, handed to a {@link InstanceSink} while a
 * reader streams (for DLProf's iteration report). Never collected into a list by the readers.
 *
 * @param kind        {@code kernel}, {@code memcpy} or {@code memset}
 * @param iteration   iteration index, -1 when outside every iteration
 * @param dataTypes   op data types as DLProf prints them, or empty
 * @param inputShapes op input shapes as DLProf prints them, or empty
 */
public record KernelInstance(String kind, int iteration, String opId, String opName, Direction direction,
                             String opType, String kernelName, String longName, int deviceId,
                             long gpuStartNs, long gpuDurationNs, long apiStartNs, long apiDurationNs,
                             boolean usesTc, int gridX, int gridY, int gridZ, int blockX, int blockY,
                             int blockZ, String dataTypes, String inputShapes, String outputShapes) {
}
