-- A creator's photos in posts and messages are served to everyone but the creator with a mark of the creator's
-- profile address drawn in by the uploader's browser (docs/decisions/watermarks.md). On by default; a creator turns
-- it off in Settings, for photos uploaded afterwards.
ALTER TABLE users ADD COLUMN watermark INTEGER NOT NULL DEFAULT 1 CHECK (watermark IN (0, 1));
-- The mark a photo was uploaded with ("example.com/alice"), fixed when its upload starts: null, no mark. A marked
-- photo's copies 640 and 1280 wide carry the mark too, and marked_key is its full-size marked copy, which fans get
-- instead of object_key (kept for the creator alone). Unique, so /media finds its row with one index probe.
ALTER TABLE media ADD COLUMN watermark TEXT;
ALTER TABLE media ADD COLUMN marked_key TEXT;
CREATE UNIQUE INDEX media_marked ON media(marked_key) WHERE marked_key IS NOT NULL;
