package dev.outboxrelay.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartFilesTest {

  @Test
  void theReportWritesItsChartsBesideTheMarkdownThatEmbedsThem(@TempDir Path dir) throws Exception {
    Report r = new Report();
    for (String db : Charts.DBS) {
      r.add(new Figure("drain.polling." + db, "p " + db, "msg/s", List.of(40_000.0), ""));
      r.add(new Figure("drain.gruelbox." + db, "g " + db, "msg/s", List.of(1_600.0), ""));
    }
    r.add(new Figure("latency.cdc.postgresql.p50", "CDC, PostgreSQL", "ms", List.of(20.0), ""));
    r.add(new Figure("latency.cdc.postgresql.p99", "CDC, PostgreSQL", "ms", List.of(45.0), ""));
    for (int batch : new int[] {100, 500, 2000}) {
      r.add(new Figure("batch." + batch, "b", "msg/s", List.of(batch * 10.0, batch * 12.0), ""));
    }
    r.write(dir);

    String md = Files.readString(dir.resolve("benchmark-report.md"));
    for (String png : List.of("throughput.png", "latency.png", "drain-vs-batch-size.png")) {
      assertThat(md).contains("](" + png + ")");
      BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
      assertThat(image.getWidth()).as(png).isEqualTo(ChartFiles.WIDTH);
      assertThat(image.getHeight()).as(png).isEqualTo(ChartFiles.HEIGHT);
    }
    // No instances or in-flight figures in this run: no empty chart for them.
    assertThat(dir.resolve("drain-vs-instances.png")).doesNotExist();
    assertThat(md).doesNotContain("drain-vs-in-flight.png");
  }

  @Test
  void chartsDrawFromARecordedReportsJson(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("recorded.json");
    Files.writeString(
        json,
        "{\"figures\":[{\"id\":\"instances.1\",\"label\":\"1\",\"median\":48215,\"min\":42769,"
            + "\"max\":49794},{\"id\":\"instances.2\",\"label\":\"2\",\"median\":75944}]}");
    assertThat(ChartFiles.points(json).get("instances.2"))
        .isEqualTo(new ChartPoint("instances.2", "2", 75944, 75944, 75944));

    ChartMain.main(new String[] {json.toString()});

    assertThat(Files.list(dir.resolve("recorded")).map(p -> p.getFileName().toString()))
        .containsExactly("drain-vs-instances.png");
  }
}
