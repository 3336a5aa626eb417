package toolavailability.mongoserver;

import de.bwaldvogel.mongo.backend.KeyValue;
import org.h2.mvstore.type.ObjectDataType;

/**
 * The key type of the H2 backend's unique indexes: the order the keys already have on disk, found
 * without the Java serialisation that costs. mongo-java-server's H2 backend opens each index as an
 * MVMap with H2's default ObjectDataType. Its keys ({@link KeyValue}) are not Comparable, so every
 * comparison of a B-tree search serialised both keys with an ObjectOutputStream and compared the
 * bytes: three quarters of the server's CPU in a batch of outcome reports went there (P350).
 *
 * <p>For the keys this service's unique indexes hold, the order of those bytes is known:
 * <ul>
 *   <li>one plain ASCII string (an {@code _id});</li>
 *   <li>that string and a number (the {@code {_id, version}} guard; the index holds numbers as
 *       Doubles);</li>
 *   <li>plain ASCII strings and nulls (the {@code {scope, scopeId, toolName}} key, whose scopeId
 *       is null at GLOBAL).</li>
 * </ul>
 * A string is written as a tag, its length in bytes, then its bytes (one per ASCII character); a
 * null as one tag byte, below a string's; an Integer as its four bytes and a Double as the eight
 * of its doubleToLongBits, big-endian, compared unsigned. Such pairs are compared that way, in
 * exactly the order the serialised bytes give; every other pair goes to ObjectDataType as before.
 * The order of keys on disk is unchanged, and so is how they are written: a store written before
 * reads the same, and one written now reads the same without this class.
 */
final class IndexKeyOrder extends ObjectDataType {

    /** compareKnown's answer for a pair whose serialised order it does not know. */
    static final int UNKNOWN = Integer.MIN_VALUE;

    @Override
    public int compare(Object a, Object b) {
        if (a instanceof KeyValue && b instanceof KeyValue) {
            int order = compareKnown((KeyValue) a, (KeyValue) b);
            if (order != UNKNOWN) {
                return order;
            }
        }
        return super.compare(a, b);
    }

    /** -1, 0 or 1 as the serialised bytes of {@code a} and {@code b} compare; UNKNOWN for other keys. */
    static int compareKnown(KeyValue a, KeyValue b) {
        if (a.size() != b.size() || !knownShape(a) || !knownShape(b)) {
            return UNKNOWN;
        }
        for (int i = 0; i < a.size(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int order;
            if (x instanceof Number || y instanceof Number) {
                if (x instanceof Integer && y instanceof Integer) {
                    order = Integer.compareUnsigned((Integer) x, (Integer) y);
                } else if (x instanceof Double && y instanceof Double) {
                    // Serialisation writes a double's doubleToLongBits, big-endian.
                    order = Long.compareUnsigned(
                        Double.doubleToLongBits((Double) x), Double.doubleToLongBits((Double) y));
                } else {
                    return UNKNOWN;
                }
            } else if (x == null || y == null) {
                // A null is one tag byte (TC_NULL, 0x70), below a string's (TC_STRING, 0x74).
                order = x == y ? 0 : x == null ? -1 : 1;
            } else {
                String s = (String) x;
                String t = (String) y;
                // The length comes first in the bytes, so a shorter string sorts first.
                order = s.length() != t.length() ? Integer.compare(s.length(), t.length()) : s.compareTo(t);
            }
            if (order != 0) {
                return Integer.signum(order);
            }
        }
        return 0;
    }

    /**
     * Plain ASCII strings and nulls, with at most one number, an Integer or a Double, last of two
     * or more parts (the version guard: the index holds its numbers as Doubles). The same object
     * twice in one key would be written the second time as a reference to the first, so such a
     * key is left to H2.
     */
    private static boolean knownShape(KeyValue key) {
        int size = key.size();
        for (int i = 0; i < size; i++) {
            Object value = key.get(i);
            boolean known = value == null
                || (value instanceof String && plainAscii((String) value))
                || ((value instanceof Integer || value instanceof Double) && i == size - 1 && i > 0);
            if (!known) {
                return false;
            }
            for (int j = 0; j < i && value != null; j++) {
                if (key.get(j) == value) {
                    return false;
                }
            }
        }
        return size > 0;
    }

    /**
     * Characters 1 to 127, and short enough for the two-byte length: Java's modified UTF-8 writes
     * each as one byte of the same value (NUL takes two bytes, and a longer string another tag).
     */
    private static boolean plainAscii(String s) {
        if (s.length() > 0xFFFF) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0 || c > 0x7F) {
                return false;
            }
        }
        return true;
    }
}
