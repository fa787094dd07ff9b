package dev.outboxrelay.servers.internal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One-shot requests in RocketMQ's remoting protocol (JSON headers), so that readiness probes need
 * no RocketMQ client on the test classpath. Frame: total length, header length, header, body.
 */
public final class RocketMqRemoting {
  /** Request code of a topic's route, asked of the name server. */
  public static final int GET_ROUTEINFO_BY_TOPIC = 105;

  /** Request code of the cluster's brokers, asked of the name server. */
  public static final int GET_BROKER_CLUSTER_INFO = 106;

  /** Request code that changes broker settings (the body is a properties text), to a broker. */
  public static final int UPDATE_BROKER_CONFIG = 25;

  /** Request code that creates or updates a topic, to a broker. */
  public static final int UPDATE_AND_CREATE_TOPIC = 17;

  private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*(-?\\d+)");
  private static final Pattern REMARK =
      Pattern.compile("\"remark\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

  private RocketMqRemoting() {}

  /** A reply: its response code (0 is success), remark (the error, if any) and body. */
  public record Reply(int code, String remark, String body) {}

  /** Sends one request to {@code host:port}; null when the server does not answer in 2 s. */
  public static Reply call(String address, int code, Map<String, String> extFields) {
    return call(address, code, extFields, "");
  }

  /** Sends one request with a body; null when the server does not answer in 2 s. */
  public static Reply call(String address, int code, Map<String, String> extFields, String body) {
    String[] hostPort = address.split(":");
    String ext =
        extFields.entrySet().stream()
            .map(e -> '"' + e.getKey() + "\":\"" + e.getValue() + '"')
            .collect(Collectors.joining(",", "{", "}"));
    byte[] header =
        ("{\"code\":"
                + code
                + ",\"extFields\":"
                + ext
                + ",\"flag\":0,\"language\":\"JAVA\","
                + "\"opaque\":1,\"serializeTypeCurrentRPC\":\"JSON\",\"version\":500}")
            .getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 1000);
      s.setSoTimeout(2000);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      byte[] requestBody = body.getBytes(StandardCharsets.UTF_8);
      out.writeInt(4 + header.length + requestBody.length);
      out.writeInt(header.length);
      out.write(header);
      out.write(requestBody);
      out.flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      int length = in.readInt();
      int headerLength = in.readInt() & 0xFFFFFF;
      byte[] replyHeader = in.readNBytes(headerLength);
      byte[] replyBody = in.readNBytes(length - 4 - headerLength);
      String head = new String(replyHeader, StandardCharsets.UTF_8);
      Matcher replyCode = CODE.matcher(head);
      Matcher remark = REMARK.matcher(head);
      return replyCode.find()
          ? new Reply(
              Integer.parseInt(replyCode.group(1)),
              remark.find() ? remark.group(1) : "",
              new String(replyBody, StandardCharsets.UTF_8))
          : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
