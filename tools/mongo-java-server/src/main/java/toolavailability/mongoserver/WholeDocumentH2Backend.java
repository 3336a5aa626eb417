package toolavailability.mongoserver;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.h2.H2UniqueIndexes;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

import java.util.List;

/**
 * The H2 backend whose reads return whole documents ({@link WholeDocuments}): MVMap hands out
 * the object it caches, which an update mutates in place before it puts it back, so the H2
 * backend has the memory backend's torn reads too. Its unique indexes compare keys with
 * {@link IndexKeyOrder}, in the order they have on disk.
 */
class WholeDocumentH2Backend extends H2Backend {

    /**
     * The one store of this process. A static, not a field: H2Backend's constructor opens the
     * databases already in the file (and they their collections) before a subclass field is set.
     */
    private static volatile MVStore store;

    WholeDocumentH2Backend(MVStore mvStore) {
        super(remember(mvStore));
    }

    private static MVStore remember(MVStore mvStore) {
        store = mvStore;
        return mvStore;
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, store, getCursorRegistry());
    }

    private static final class Database extends H2Database {
        Database(String databaseName, MVStore mvStore, CursorRegistry cursorRegistry) {
            super(databaseName, mvStore, cursorRegistry);
        }

        /**
         * The index map as H2Database opens it (its name, 1.47.0: mapNameForIndex is private), with a
         * key type that finds the same order without serialising every key it compares (P350).
         */
        @Override
        protected Index<Object> openOrCreateUniqueIndex(String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
            String name = getFullCollectionNamespace(collectionName) + "._index_" + indexName;
            MVMap<KeyValue, Object> map = store.openMap(name, new MVMap.Builder<KeyValue, Object>().keyType(new IndexKeyOrder()));
            return H2UniqueIndexes.on(map, indexName, keys, sparse);
        }

        @Override
        protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
            // The map names of H2Database.openOrCreateCollection (1.47.0; its prefixes are not public)
            String fullName = getFullCollectionNamespace(collectionName);
            MVMap<Object, Document> dataMap = store.openMap("databases." + fullName);
            MVMap<String, Object> metaMap = store.openMap("meta." + fullName);
            return new Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
        }
    }

    private static final class Collection extends H2Collection {
        private final WholeDocuments whole = new WholeDocuments();

        Collection(MongoDatabase database, String collectionName, CollectionOptions options, MVMap<Object, Document> dataMap,
                   MVMap<String, Object> metaMap, CursorRegistry cursorRegistry) {
            super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
        }

        @Override
        public synchronized QueryResult handleQuery(QueryParameters queryParameters) {
            return whole.query(() -> super.handleQuery(queryParameters));
        }

        @Override
        public synchronized Document findAndModify(Document query) {
            return whole.findAndModify(() -> super.findAndModify(query));
        }

        @Override
        protected boolean documentMatchesQuery(Document document, Document query) {
            Boolean byId = IdFilter.matches(document, query);
            return byId != null ? byId : super.documentMatchesQuery(document, query);
        }

        @Override
        protected QueryResult createQueryResult(List<Document> matchedDocuments, int batchSize) {
            return super.createQueryResult(whole.results(matchedDocuments), batchSize);
        }
    }
}
