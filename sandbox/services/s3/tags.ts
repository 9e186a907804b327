import { AwsError } from '../../core/errors.js';
import { keyed, type Keyed } from '../../core/keyed.js';
import { childNodes, childText, type XmlNode } from './xml-input.js';
import { malformedXml } from './errors.js';

/** Bucket tag sets (`<TagSet><Tag><Key/><Value/></Tag>…`), validated with S3's InvalidTag rules. */
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;
const MAX_BUCKET_TAGS = 50;

const invalidTag = (message: string, key?: string) =>
  new AwsError('InvalidTag', message, 400, key === undefined ? {} : { TagKey: key });

export function readTagSet(container: XmlNode): Keyed<string> {
  const tags: Keyed<string> = {};
  const list = childNodes(container, 'Tag');
  for (const tag of list) {
    const key = childText(tag, 'Key');
    const value = childText(tag, 'Value') ?? '';
    if (key === undefined) throw malformedXml();
    if (key.length < 1 || key.length > 128 || !TAG_TEXT.test(key))
      throw invalidTag('The TagKey you have provided is invalid', key);
    if (value.length > 256 || !TAG_TEXT.test(value)) throw invalidTag('The TagValue you have provided is invalid', key);
    if (key.toLowerCase().startsWith('aws:')) throw invalidTag('System tags cannot be added/updated by requester', key);
    if (keyed.has(tags, key)) throw invalidTag('Cannot provide multiple Tags with the same key', key);
    keyed.set(tags, key, value);
  }
  if (list.length > MAX_BUCKET_TAGS) throw invalidTag(`Bucket tag count cannot be greater than ${MAX_BUCKET_TAGS}`);
  return tags;
}

export function renderTagSet(tags: Keyed<string>) {
  return { '#flat:Tag': keyed.entries(tags).map(([Key, Value]) => ({ Key, Value })) };
}
