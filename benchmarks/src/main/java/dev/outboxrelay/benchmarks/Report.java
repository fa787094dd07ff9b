package dev.outboxrelay.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Collects figures and machine facts, and renders them as markdown and JSON. */
public final class Report {
  private final Map<String, Figure> figures = new LinkedHashMap<>();
  private final Map<String, String> facts = new LinkedHashMap<>();
  private final List<String> loads = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  public synchronized void add(Figure f) {
    figures.put(f.id(), f);
  }

  public synchronized Optional<Figure> get(String id) {
    return Optional.ofNullable(figures.get(id));
  }

  public synchronized List<Figure> figures() {
    return List.copyOf(figures.values());
  }

  public synchronized void fact(String name, String value) {
    facts.put(name, value);
  }

  public synchronized Map<String, String> facts() {
    return new LinkedHashMap<>(facts);
  }

  /** A machine-load sample ({@code uptime}) with what was about to run. */
  public synchronized void load(String when, String uptime) {
    loads.add(when + ": " + uptime);
  }

  public synchronized List<String> loads() {
    return List.copyOf(loads);
  }

  public synchronized void note(String note) {
    notes.add(note);
  }

  public synchronized List<String> notes() {
    return List.copyOf(notes);
  }

  /**
   * Writes {@code benchmark-report.md}, {@code benchmark-report.json} and the charts the markdown
   * embeds ({@code *.png}, see {@link ChartFiles}) into the directory.
   */
  public void write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<ChartFiles.Chart> charts = ChartFiles.write(ChartFiles.points(this), dir);
    Files.writeString(
        dir.resolve("benchmark-report.md"), new MarkdownReport(this, charts).render());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("facts", facts());
    json.put("load", loads());
    json.put("notes", notes());
    List<Map<String, Object>> list = new ArrayList<>();
    for (Figure f : figures()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", f.id());
      m.put("label", f.label());
      m.put("unit", f.unit());
      Stats s = f.stats();
      m.put("median", s.median());
      m.put("min", s.min());
      m.put("max", s.max());
      m.put("runs", s.runs());
      m.put("samples", f.samples());
      m.put("note", f.note());
      list.add(m);
    }
    json.put("figures", list);
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(dir.resolve("benchmark-report.json").toFile(), json);
  }
}
