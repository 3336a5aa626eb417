package toolavailability.mongoserver;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;

/**
 * Runs mongo-java-server with its in-memory backend until SIGTERM/SIGINT.
 *
 * <pre>
 * java -jar mongo-java-server-launcher.jar [HOST [PORT]] [--exit-on-stdin-eof]
 * </pre>
 *
 * HOST defaults to 127.0.0.1, PORT to 27017 (0 picks a free port). Once bound it prints exactly
 * one line {@code LISTENING HOST:PORT} to stdout. The server version is the library's default
 * (MONGO_5_0): the Node.js driver refuses the older wire versions of MONGO_3_6 and MONGO_4_0.
 * With {@code --exit-on-stdin-eof} the process also exits when its stdin is closed, so a
 * parent that dies without stopping it (it holds the pipe) does not leave it behind.
 * Everything is lost when the process stops.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        String host = "127.0.0.1";
        int port = 27017;
        boolean exitOnStdinEof = false;
        int positional = 0;
        for (String arg : args) {
            if (arg.equals("--exit-on-stdin-eof")) {
                exitOnStdinEof = true;
            } else if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println("usage: java -jar mongo-java-server-launcher.jar [HOST [PORT]] [--exit-on-stdin-eof]");
                return;
            } else if (arg.startsWith("-")) {
                fail("unknown option: " + arg);
            } else if (positional == 0) {
                host = arg;
                positional++;
            } else if (positional == 1) {
                try {
                    port = Integer.parseInt(arg);
                } catch (NumberFormatException e) {
                    fail("invalid port: " + arg);
                }
                if (port < 0 || port > 65535) {
                    fail("invalid port: " + arg);
                }
                positional++;
            } else {
                fail("too many arguments");
            }
        }

        MongoServer server = new MongoServer(new MemoryBackend());
        try {
            server.bind(host, port);
        } catch (Throwable e) { // Netty rethrows java.net.BindException (checked) sneakily
            System.err.println("mongo-java-server: cannot bind " + host + ":" + port + ": " + e);
            server.shutdownNow();
            System.exit(1);
            return;
        }

        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "mongo-java-server-shutdown"));

        InetSocketAddress address = server.getLocalAddress();
        System.out.println("LISTENING " + address.getAddress().getHostAddress() + ":" + address.getPort());
        System.out.flush();

        if (exitOnStdinEof) {
            Thread watcher = new Thread(() -> {
                InputStream in = System.in;
                byte[] buffer = new byte[256];
                try {
                    while (in.read(buffer) >= 0) {
                        // discard
                    }
                } catch (IOException ignored) {
                    // treat as closed
                }
                System.exit(0); // runs the shutdown hook
            }, "stdin-eof-watcher");
            watcher.setDaemon(true);
            watcher.start();
        }
        // Netty's event loop threads are non-daemon and keep the JVM alive until the shutdown hook.
    }

    private static void fail(String message) {
        System.err.println("mongo-java-server: " + message);
        System.err.println("usage: java -jar mongo-java-server-launcher.jar [HOST [PORT]] [--exit-on-stdin-eof]");
        System.exit(2);
    }
}
