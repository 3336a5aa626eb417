package toolavailability.mongoserver;

import de.bwaldvogel.mongo.backend.KeyValue;
import org.h2.mvstore.type.ObjectDataType;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IndexKeyOrder must give exactly the order H2 gives by serialising the keys (the order of every
 * index already on disk), for every pair it answers itself; other pairs must reach H2's own.
 */
class IndexKeyOrderTest {

    private final Random random = new Random(20261205);
    private final ObjectDataType fast = new IndexKeyOrder();

    /** The order H2's ObjectDataType gives two keys that are not Comparable: their serialised bytes. */
    private static int serialisedOrder(Object a, Object b) {
        return Integer.signum(ObjectDataType.compareNotNull(ObjectDataType.serialize(a), ObjectDataType.serialize(b)));
    }

    private String id(int maxLength, char from, char to) {
        // Few distinct characters and short lengths, so equal prefixes and equal strings are frequent.
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(maxLength + 1);
        for (int i = 0; i < length; i++) {
            s.append((char) (from + random.nextInt(to - from + 1)));
        }
        return s.toString();
    }

    private int version() {
        return random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(3);
    }

    @Test
    void oneAsciiStringOrdersAsItsSerialisedBytes() {
        for (int i = 0; i < 20_000; i++) {
            KeyValue a = new KeyValue(id(6, 'a', 'c'));
            KeyValue b = new KeyValue(random.nextInt(5) == 0 ? a.get(0) : id(6, 'a', 'c'));
            assertTrue(IndexKeyOrder.compareKnown(a, b) != IndexKeyOrder.UNKNOWN);
            assertEquals(serialisedOrder(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
        for (int i = 0; i < 20_000; i++) {
            KeyValue a = new KeyValue(id(40, (char) 1, (char) 0x7F));
            KeyValue b = new KeyValue(id(40, (char) 1, (char) 0x7F));
            assertEquals(serialisedOrder(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
    }

    @Test
    void anAsciiStringAndAnIntegerOrderAsTheirSerialisedBytes() {
        for (int i = 0; i < 20_000; i++) {
            String s = id(4, 'a', 'b');
            KeyValue a = new KeyValue(s, version());
            KeyValue b = new KeyValue(random.nextBoolean() ? s : id(4, 'a', 'b'), version());
            assertTrue(IndexKeyOrder.compareKnown(a, b) != IndexKeyOrder.UNKNOWN);
            assertEquals(serialisedOrder(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
    }

    @Test
    void otherKeysAreLeftToH2() {
        Object[][] pairs = {
            {new KeyValue("caf\u00e9"), new KeyValue("cafe")},
            {new KeyValue("a\u0000b"), new KeyValue("a")},
            {new KeyValue("x".repeat(70_000)), new KeyValue("x")},
            {new KeyValue("a", 1L), new KeyValue("a", 1)},
            {new KeyValue("a", 1.5), new KeyValue("a", 2.0)},
            {new KeyValue(7), new KeyValue(8)},
            {new KeyValue("a", 1, "b"), new KeyValue("a", 1, "c")},
            {new KeyValue("a"), new KeyValue("a", 1)},
        };
        for (Object[] pair : pairs) {
            KeyValue a = (KeyValue) pair[0];
            KeyValue b = (KeyValue) pair[1];
            assertEquals(IndexKeyOrder.UNKNOWN, IndexKeyOrder.compareKnown(a, b), () -> a + " vs " + b);
            assertEquals(new ObjectDataType().compare(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
    }
}
