package toolavailability.mongoserver;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.MVStore;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs mongo-java-server until SIGTERM/SIGINT: with its in-memory backend, or with
 * {@code --h2 FILE} on its H2 MVStore backend, persisted in FILE (the embedded default, D2).
 *
 * <pre>
 * java -jar mongo-java-server-launcher.jar [HOST [PORT]] [--exit-on-stdin-eof]
 *      [--h2 FILE [--commit-interval-ms N] [--commit-per-write] [--h2-settings SETTINGS]]
 * </pre>
 *
 * {@code --h2-settings} is MVStore.Builder's own settings string ({@code Builder.fromString}, e.g.
 * {@code cacheSize:64,autoCompactFillRate:0}): the page cache in MB and the fill rate below which
 * the background writer rewrites chunks (docs/performance.md, "The embedded H2 server after a
 * million inserts").
 *
 * MVStore keeps changes in memory until a commit writes them to FILE; by itself it commits about
 * once a second, so a SIGKILL could lose the last second of acknowledged writes. This launcher
 * commits every N ms (default 50) when there is anything to write: the durability window. With
 * {@code --commit-per-write} every command that changed something is committed before its reply
 * is sent, so an acknowledged write is in FILE (the OS's page cache: it survives a SIGKILL of this
 * process, not a power cut, since nothing calls fsync); concurrent writers share one commit, as
 * each waits for the store lock and finds nothing left to write. The interval commit stays on as
 * a backstop. MVStore locks FILE, so a second server on the same file refuses to start.
 *
 * HOST defaults to 127.0.0.1, PORT to 27017 (0 picks a free port). Once bound it prints exactly
 * one line {@code LISTENING HOST:PORT} to stdout. The server version is the library's default
 * (MONGO_5_0): the Node.js driver refuses the older wire versions of MONGO_3_6 and MONGO_4_0.
 * With {@code --exit-on-stdin-eof} the process also exits when its stdin is closed, so a
 * parent that dies without stopping it (it holds the pipe) does not leave it behind.
 * Everything is lost when the process stops.
 *
 * Either backend returns whole documents on every read: a reply never mixes fields from before
 * and after a concurrent update ({@link WholeDocuments}, docs/upstream-mongo-java-server.md).
 */
public final class Main {

    private static final String USAGE = "usage: java -jar mongo-java-server-launcher.jar [HOST [PORT]] [--exit-on-stdin-eof]"
            + " [--h2 FILE [--commit-interval-ms N] [--commit-per-write] [--h2-settings SETTINGS]]";

    /** The H2 backend, committing the MVStore after every command that changed it, before the reply. */
    private static final class CommitPerWriteH2Backend extends WholeDocumentH2Backend {
        private final MVStore store;

        CommitPerWriteH2Backend(MVStore store) {
            super(store);
            this.store = store;
        }

        @Override
        public Document handleCommand(Channel channel, String database, String command, Document query) {
            try {
                return super.handleCommand(channel, database, command, query);
            } finally {
                // finally: a failed command may have changed something too (e.g. a partial insertMany)
                if (store.hasUnsavedChanges()) {
                    store.commit();
                }
            }
        }
    }

    private Main() {
    }

    public static void main(String[] args) {
        String host = "127.0.0.1";
        int port = 27017;
        boolean exitOnStdinEof = false;
        String h2File = null;
        String h2Settings = null;
        int commitIntervalMs = 50;
        boolean commitPerWrite = false;
        int positional = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--exit-on-stdin-eof")) {
                exitOnStdinEof = true;
            } else if (arg.equals("--h2")) {
                if (i + 1 >= args.length) {
                    fail("--h2 needs a file");
                }
                h2File = args[++i];
            } else if (arg.equals("--h2-settings")) {
                if (i + 1 >= args.length) {
                    fail("--h2-settings needs a settings string, e.g. cacheSize:64");
                }
                h2Settings = args[++i];
            } else if (arg.equals("--commit-per-write")) {
                commitPerWrite = true;
            } else if (arg.equals("--commit-interval-ms")) {
                if (i + 1 >= args.length) {
                    fail("--commit-interval-ms needs a number");
                }
                try {
                    commitIntervalMs = Integer.parseInt(args[++i]);
                } catch (NumberFormatException e) {
                    fail("invalid --commit-interval-ms: " + args[i]);
                }
                if (commitIntervalMs < 1 || commitIntervalMs > 60_000) {
                    fail("--commit-interval-ms must be 1..60000");
                }
            } else if (arg.equals("-h") || arg.equals("--help")) {
                System.out.println(USAGE);
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

        MongoBackend backend;
        ScheduledExecutorService committer = null;
        if (h2File == null) {
            backend = new WholeDocumentMemoryBackend();
        } else {
            MVStore store;
            try {
                MVStore.Builder builder = h2Settings == null ? new MVStore.Builder() : MVStore.Builder.fromString(h2Settings);
                store = builder.fileName(h2File).open();
            } catch (RuntimeException e) { // e.g. the file is locked by another server
                System.err.println("mongo-java-server: cannot open " + h2File + ": " + e.getMessage());
                System.exit(1);
                return;
            }
            store.setAutoCommitDelay(commitIntervalMs);
            backend = commitPerWrite ? new CommitPerWriteH2Backend(store) : new WholeDocumentH2Backend(store);
            committer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "mvstore-committer");
                thread.setDaemon(true);
                return thread;
            });
            committer.scheduleWithFixedDelay(() -> {
                try {
                    if (store.hasUnsavedChanges()) {
                        store.commit();
                    }
                } catch (RuntimeException e) {
                    System.err.println("mongo-java-server: commit failed: " + e);
                }
            }, commitIntervalMs, commitIntervalMs, TimeUnit.MILLISECONDS);
        }

        MongoServer server = new MongoServer(backend);
        try {
            server.bind(host, port);
        } catch (Throwable e) { // Netty rethrows java.net.BindException (checked) sneakily
            System.err.println("mongo-java-server: cannot bind " + host + ":" + port + ": " + e);
            server.shutdownNow();
            System.exit(1);
            return;
        }

        ScheduledExecutorService finalCommitter = committer;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (finalCommitter != null) {
                finalCommitter.shutdownNow();
            }
            server.shutdown(); // closes the backend: H2 commits and closes its file
        }, "mongo-java-server-shutdown"));

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
        System.err.println(USAGE);
        System.exit(2);
    }
}
