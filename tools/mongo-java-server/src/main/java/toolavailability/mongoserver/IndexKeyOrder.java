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
 * <p>For the keys this service's indexes hold — one plain ASCII string (an {@code _id}), or one
 * with an Integer after it (the {@code {_id, version}} guard) — the order of those bytes is known:
 * a string is written as its length in bytes, then its bytes (one per ASCII character), and an
 * Integer as its four bytes, big-endian, compared unsigned. Such pairs are compared that way, in
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
        int size = a.size();
        if (size != b.size() || size > 2) {
            return UNKNOWN;
        }
        if (!(a.get(0) instanceof String) || !(b.get(0) instanceof String)) {
            return UNKNOWN;
        }
        String s = (String) a.get(0);
        String t = (String) b.get(0);
        if (!plainAscii(s) || !plainAscii(t)) {
            return UNKNOWN;
        }
        if (size == 2 && !(a.get(1) instanceof Integer && b.get(1) instanceof Integer)) {
            return UNKNOWN;
        }
        // The length comes first in the bytes, so a shorter string sorts first.
        if (s.length() != t.length()) {
            return s.length() < t.length() ? -1 : 1;
        }
        int byChars = s.compareTo(t);
        if (byChars != 0 || size == 1) {
            return Integer.signum(byChars);
        }
        return Integer.signum(Integer.compareUnsigned((Integer) a.get(1), (Integer) b.get(1)));
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
