import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * The jdk.VirtualThreadPinned events of a JFR recording, one CSV line each: when the pin began (epoch ms), how long
 * it lasted (µs), and where: the first frame outside the JDK (the code that held the monitor, e.g. the MySQL
 * driver's socket read), or "jdk" if every recorded frame is the JDK's own. Read with the JDK's own consumer API:
 * `jfr print --json` of a recording with a hundred thousand pins and their stacks is a gigabyte of text.
 *
 * java bench/PinnedEvents.java RECORDING.jfr
 */
public class PinnedEvents {

    public static void main(String[] args) throws IOException {
        System.out.println("start_ms,duration_us,where");
        try (RecordingFile recording = new RecordingFile(Path.of(args[0]))) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                    System.out.println(event.getStartTime().toEpochMilli() + "," + event.getDuration().toNanos() / 1_000
                            + "," + where(event.getStackTrace()));
                }
            }
        }
    }

    private static String where(RecordedStackTrace stack) {
        if (stack == null) {
            return "unknown";
        }
        List<RecordedFrame> frames = stack.getFrames();
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (!(type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun."))) {
                return type + "." + frame.getMethod().getName();
            }
        }
        return "jdk";
    }
}
