package de.bwaldvogel.mongo.backend.h2;

import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import org.h2.mvstore.MVMap;

import java.util.List;

/**
 * H2UniqueIndex's constructor is package-private (mongo-java-server 1.47.0): this opens one on a
 * map the launcher opened itself, with its own key type (toolavailability.mongoserver.IndexKeyOrder).
 */
public final class H2UniqueIndexes {

    private H2UniqueIndexes() {
    }

    public static H2UniqueIndex on(MVMap<KeyValue, Object> map, String name, List<IndexKey> keys, boolean sparse) {
        return new H2UniqueIndex(map, name, keys, sparse);
    }
}
