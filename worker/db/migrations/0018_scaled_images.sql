-- Issue 16: a post's or message's photo is served to phones at the width they show it, not as uploaded (a phone's
-- 12-megapixel original is several MB). The browser that uploads a photo also makes copies of it 640 and 1280
-- pixels wide (when it is wider), as it makes the blurred preview; the feed offers them with srcset, and /media
-- serves them under the same rule as the photo itself (worker/domain/policies/media.ts). Each key is unique, so
-- /media finds a copy's row with one index probe, as it does a preview's.
ALTER TABLE media ADD COLUMN w640_key TEXT;
ALTER TABLE media ADD COLUMN w1280_key TEXT;
CREATE UNIQUE INDEX media_w640 ON media(w640_key) WHERE w640_key IS NOT NULL;
CREATE UNIQUE INDEX media_w1280 ON media(w1280_key) WHERE w1280_key IS NOT NULL;
