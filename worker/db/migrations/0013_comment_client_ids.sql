-- A comment may carry the id its client gave it (the offline outbox sends each action once, maybe several times
-- over a flaky network): the same id from the same person stores one comment.
ALTER TABLE comments ADD COLUMN client_id TEXT CHECK (client_id IS NULL OR length(client_id) BETWEEN 8 AND 64);
CREATE UNIQUE INDEX comments_client ON comments(user_id, client_id) WHERE client_id IS NOT NULL;
