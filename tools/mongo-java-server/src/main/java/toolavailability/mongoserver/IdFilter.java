package toolavailability.mongoserver;

import de.bwaldvogel.mongo.bson.Document;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Matching of the filters this service reads and writes by key with: {@code {_id: s}} and
 * {@code {_id: {$in: [s, ...]}}}, with strings only (P351). mongo-java-server matches each document
 * its {@code _id} index found against the whole filter again, normalising both sides of every
 * comparison it makes (a copy of the document, a stream per value): for a list of n keys that is
 * up to n normalisations per document: 29 % of the H2 server's CPU in a profile under the bench's
 * failure reports and batches. For these filters a match is string equality, as it is for
 * mongo-java-server (a string normalises to itself; no collation); any other filter, or a
 * document whose {@code _id} is not a string, is left to it.
 */
final class IdFilter {

    /**
     * The strings of the last list this thread matched against: one filter is matched against each
     * of its documents in turn. Held by identity, so a later filter can never be mistaken for it.
     */
    private static final ThreadLocal<Object[]> LAST_LIST = new ThreadLocal<>();

    private IdFilter() {
    }

    /** Whether the document matches the filter; null when the filter is not one of these. */
    static Boolean matches(Document document, Document filter) {
        if (filter.size() != 1) {
            return null;
        }
        Object byId = filter.get("_id");
        Object id = document.get("_id");
        if (byId == null || !(id instanceof String)) {
            return null;
        }
        if (byId instanceof String) {
            return byId.equals(id);
        }
        Set<String> keys = strings(byId);
        return keys == null ? null : keys.contains(id);
    }

    /** The strings of {@code {$in: [s, ...]}}; null for any other condition. */
    private static Set<String> strings(Object condition) {
        Object[] last = LAST_LIST.get();
        if (last != null && last[0] == condition) {
            @SuppressWarnings("unchecked")
            Set<String> known = (Set<String>) last[1];
            return known;
        }
        if (!(condition instanceof Document) || ((Document) condition).size() != 1) {
            return null;
        }
        Object list = ((Document) condition).get("$in");
        if (!(list instanceof Collection)) {
            return null;
        }
        Set<String> keys = new HashSet<>();
        for (Object item : (Collection<?>) list) {
            if (!(item instanceof String)) {
                return null;
            }
            keys.add((String) item);
        }
        LAST_LIST.set(new Object[] {condition, keys});
        return keys;
    }
}
