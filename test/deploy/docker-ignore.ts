/**
 * Whether a path of the build context is left out by a .dockerignore, after the rules of Docker's build context
 * (docs.docker.com/build/concepts/context/#dockerignore-files; moby/patternmatcher): one pattern per line, `#` comments,
 * Go `filepath.Match` wildcards plus `**` for any number of directories, a leading `!` re-includes, the last
 * matching line wins, and a pattern that matches a directory matches everything under it.
 */
export function dockerIgnore(text: string): (path: string) => boolean {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const body = (include ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
      return { include, regex: patternRegex(body) };
    });
  return (path) => {
    const parts = path.split('/');
    // The path itself and each of its parent directories.
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const { include, regex } of patterns) {
      if (candidates.some((c) => regex.test(c))) ignored = !include;
    }
    return ignored;
  };
}

function patternRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (pattern.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}
