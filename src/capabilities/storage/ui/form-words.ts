import type { FormWords } from '@domain/form-words.js';

/**
 * The add-storage request's choice fields as the form shows them: the server's messages (the schema's and the add
 * checks') name the request fields for every client, the form names the choices its user sees.
 */
export const WORDS: FormWords = {
  'set createBucket: true': 'choose “A new bucket”',
  'createBucket: true': '“A new bucket”',
  '(createBucket: false)': '(“An existing bucket”)',
  'createBucket: false': '“An existing bucket”',
  'set createFileSystem: true': 'choose “A new file system”',
  'createFileSystem: true': '“A new file system”',
};
