package toolavailability.mongoserver;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;

import java.util.List;

/** The memory backend whose reads return whole documents ({@link WholeDocuments}). */
final class WholeDocumentMemoryBackend extends MemoryBackend {

    @Override
    public MemoryDatabase openOrCreateDatabase(String databaseName) {
        return new Database(databaseName, getCursorRegistry());
    }

    private static final class Database extends MemoryDatabase {
        Database(String databaseName, CursorRegistry cursorRegistry) {
            super(databaseName, cursorRegistry);
        }

        @Override
        protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
            return new Collection(this, collectionName, options, cursorRegistry);
        }
    }

    private static final class Collection extends MemoryCollection {
        private final WholeDocuments whole = new WholeDocuments();

        Collection(MongoDatabase database, String collectionName, CollectionOptions options, CursorRegistry cursorRegistry) {
            super(database, collectionName, options, cursorRegistry);
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
