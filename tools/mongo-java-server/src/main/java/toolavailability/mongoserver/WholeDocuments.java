package toolavailability.mongoserver;

import de.bwaldvogel.mongo.bson.Document;

import java.util.ArrayList;
import java.util.List;

/**
 * Whole documents on every read (docs/upstream-mongo-java-server.md, P118). mongo-java-server
 * 1.47.0 updates a stored document object in place, field by field, under the collection's lock,
 * while a query's reply holds references to those same objects and is encoded after the lock is
 * released: a reply could mix fields from before and after an update. The collections of
 * {@link WholeDocumentMemoryBackend} and {@link WholeDocumentH2Backend} hand out deep copies
 * taken under the lock instead, and the per-thread flags here tell a client's read (copy) from
 * the collection's own read-before-update inside findAndModify (which must see the stored object).
 */
final class WholeDocuments {

    /** Set while a client's query runs on this thread: its results are copied. */
    private final ThreadLocal<Boolean> copying = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** Set while findAndModify runs on this thread: its own query must return the stored objects. */
    private final ThreadLocal<Boolean> modifying = ThreadLocal.withInitial(() -> Boolean.FALSE);

    interface Action<T> {
        T run();
    }

    <T> T query(Action<T> query) {
        if (modifying.get()) {
            return query.run();
        }
        copying.set(Boolean.TRUE);
        try {
            return query.run();
        } finally {
            copying.set(Boolean.FALSE);
        }
    }

    Document findAndModify(Action<Document> findAndModify) {
        modifying.set(Boolean.TRUE);
        try {
            Document result = findAndModify.run();
            // "value" may be the stored object itself (returnDocument: after)
            Object value = result == null ? null : result.get("value");
            if (value instanceof Document) {
                result.put("value", ((Document) value).cloneDeeply());
            }
            return result;
        } finally {
            modifying.set(Boolean.FALSE);
        }
    }

    /** The matched documents of a query as the reply (and a cursor's later batches) will carry them. */
    List<Document> results(List<Document> matched) {
        if (!copying.get()) {
            return matched; // an update's own query: it mutates what it finds
        }
        List<Document> copies = new ArrayList<>(matched.size());
        for (Document document : matched) {
            copies.add(document == null ? null : document.cloneDeeply());
        }
        return copies;
    }
}
