package toolavailability.mongoserver;

import de.bwaldvogel.mongo.backend.KeyValue;
import org.h2.mvstore.type.ObjectDataType;
import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.function.Supplier;

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

    /** 20 000 pairs of an ASCII string and a number, half of them sharing the string. */
    private void assertStringAndNumberPairs(Supplier<Object> number) {
        for (int i = 0; i < 20_000; i++) {
            String s = id(4, 'a', 'b');
            KeyValue a = new KeyValue(s, number.get());
            KeyValue b = new KeyValue(random.nextBoolean() ? s : id(4, 'a', 'b'), number.get());
            assertTrue(IndexKeyOrder.compareKnown(a, b) != IndexKeyOrder.UNKNOWN);
            assertEquals(serialisedOrder(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
    }

    @Test
    void anAsciiStringAndAnIntegerOrderAsTheirSerialisedBytes() {
        assertStringAndNumberPairs(this::version);
    }

    private double number() {
        switch (random.nextInt(6)) {
            case 0: return random.nextInt(3);
            case 1: return -random.nextInt(3);
            case 2: return random.nextBoolean() ? 0.0 : -0.0;
            case 3: return random.nextBoolean() ? Double.NaN : Double.POSITIVE_INFINITY;
            case 4: return Double.longBitsToDouble(random.nextLong());
            default: return random.nextDouble() * 1e6;
        }
    }

    @Test
    void anAsciiStringAndADoubleOrderAsTheirSerialisedBytes() {
        // The version guard's keys as the index holds them: numbers normalised to Doubles.
        assertStringAndNumberPairs(this::number);
    }

    /** A scope key's part: often null (GLOBAL's scopeId), often short and shared. */
    private String part() {
        int pick = random.nextInt(4);
        return pick == 0 ? null : id(pick == 1 ? 2 : 5, 'a', 'c');
    }

    @Test
    void asciiStringsNullsAndALastNumberOrderAsTheirSerialisedBytes() {
        int known = 0;
        for (int size = 1; size <= 4; size++) {
            for (int i = 0; i < 10_000; i++) {
                Object[] x = new Object[size];
                Object[] y = new Object[size];
                for (int k = 0; k < size; k++) {
                    x[k] = part();
                    // Often equal (a copy, never the same object), so later parts decide.
                    y[k] = random.nextInt(3) > 0 && x[k] != null ? new String((String) x[k]) : part();
                }
                if (size > 1 && random.nextBoolean()) {
                    // A number last, after strings or nulls: the shape of a version guard.
                    x[size - 1] = number();
                    y[size - 1] = random.nextBoolean() ? x[size - 1] : number();
                }
                KeyValue a = new KeyValue(x);
                KeyValue b = new KeyValue(y);
                // Two empty parts are one object ("" is shared), which is left to H2.
                known += IndexKeyOrder.compareKnown(a, b) != IndexKeyOrder.UNKNOWN ? 1 : 0;
                assertEquals(serialisedOrder(a, b), fast.compare(a, b), () -> a + " vs " + b);
            }
        }
        assertTrue(known > 30_000, "answered without H2: " + known);
    }

    @Test
    void otherKeysAreLeftToH2() {
        Object[][] pairs = {
            {new KeyValue("caf\u00e9"), new KeyValue("cafe")},
            {new KeyValue("a\u0000b"), new KeyValue("a")},
            {new KeyValue("x".repeat(70_000)), new KeyValue("x")},
            {new KeyValue("a", 1L), new KeyValue("a", 1)},
            {new KeyValue("a", 1.5), new KeyValue("a", 2)},
            {new KeyValue("a", 1.5f), new KeyValue("a", 2.0f)},
            {new KeyValue(7), new KeyValue(8)},
            {new KeyValue("a", 1, "b"), new KeyValue("a", 1, "c")},
            {new KeyValue("a"), new KeyValue("a", 1)},
            {new KeyValue("a", 1), new KeyValue("a", "b")},
            // One object twice in a key is written the second time as a reference to the first.
            {new KeyValue("GLOBAL", null, "GLOBAL"), new KeyValue("GLOBAL", null, new String("GLOBAL"))},
        };
        for (Object[] pair : pairs) {
            KeyValue a = (KeyValue) pair[0];
            KeyValue b = (KeyValue) pair[1];
            assertEquals(IndexKeyOrder.UNKNOWN, IndexKeyOrder.compareKnown(a, b), () -> a + " vs " + b);
            assertEquals(new ObjectDataType().compare(a, b), fast.compare(a, b), () -> a + " vs " + b);
        }
    }
}
