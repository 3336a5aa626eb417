package toolavailability.mongoserver;

import de.bwaldvogel.mongo.backend.DefaultQueryMatcher;
import de.bwaldvogel.mongo.bson.Document;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * IdFilter must answer exactly as mongo-java-server's own matcher for every filter it answers,
 * and leave every other filter to it.
 */
class IdFilterTest {

    private final Random random = new Random(20261205);
    private final DefaultQueryMatcher matcher = new DefaultQueryMatcher();

    private String key() {
        // A few short keys, so matches and near misses ("a" against "aa") are frequent.
        return "k".repeat(random.nextInt(3)) + (char) ('a' + random.nextInt(3));
    }

    private Object anyId() {
        switch (random.nextInt(8)) {
            case 0: return random.nextInt(3);
            case 1: return null;
            default: return key();
        }
    }

    @Test
    void aStringOrAListOfStringsMatchesAsMongoJavaServerDoes() {
        int answered = 0;
        for (int i = 0; i < 20_000; i++) {
            Document document = new Document("_id", anyId()).append("status", "OK");
            Object condition;
            if (random.nextBoolean()) {
                condition = key();
            } else {
                List<Object> list = new ArrayList<>();
                for (int n = random.nextInt(5); n > 0; n--) {
                    list.add(key());
                }
                condition = new Document("$in", list);
            }
            Document filter = new Document("_id", condition);
            Boolean fast = IdFilter.matches(document, filter);
            // Asked twice: the second answer comes from the list remembered for this filter.
            assertEquals(fast, IdFilter.matches(document, filter));
            if (fast != null) {
                answered++;
                assertEquals(matcher.matches(document, filter), fast, () -> document + " against " + filter);
            } else {
                assertEquals(false, document.get("_id") instanceof String, () -> "left out: " + filter);
            }
        }
        assertEquals(true, answered > 10_000);
    }

    @Test
    void otherFiltersAreLeftToMongoJavaServer() {
        Document document = new Document("_id", "a").append("version", 3);
        Object[] conditions = {
            new Document("$in", List.of("a", 1)),
            new Document("$in", List.of(Pattern.compile("^a"))),
            new Document("$in", List.of("b")).append("$ne", "c"),
            new Document("$nin", List.of("a")),
            new Document("$eq", "a"),
            Pattern.compile("a"),
            1,
        };
        for (Object condition : conditions) {
            Document filter = new Document("_id", condition);
            assertNull(IdFilter.matches(document, filter), () -> filter.toString());
        }
        assertNull(IdFilter.matches(document, new Document("_id", "a").append("version", 3)));
        assertNull(IdFilter.matches(document, new Document("version", 3)));
        assertNull(IdFilter.matches(new Document("_id", 7), new Document("_id", "7")));
        assertNotNull(IdFilter.matches(document, new Document("_id", new Document("$in", List.of()))));
    }
}
