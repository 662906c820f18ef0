/** An archive's flat entry list as a tree to show and choose from. */
import type { ArchiveEntry } from './archives-api';

export interface TreeNode {
  /** The entry path the server knows it by (what `paths` sends). */
  path: string;
  name: string;
  folder: boolean;
  size: number;
  modified: string;
  encrypted: boolean;
  skipped: string;
  children: TreeNode[];
}

/** Builds the tree: folders first, then by name; folders only implied by paths are made up. */
export function buildTree(entries: ArchiveEntry[]): TreeNode[] {
  const root: TreeNode = { path: '', name: '', folder: true, size: 0, modified: '', encrypted: false, skipped: '', children: [] };
  const byPath = new Map<string, TreeNode>([['', root]]);
  const nodeFor = (segments: string[]): TreeNode => {
    let parent = root;
    for (let i = 0; i < segments.length; i++) {
      const key = segments.slice(0, i + 1).join('/');
      let n = byPath.get(key);
      if (!n) {
        n = { path: key, name: segments[i]!, folder: true, size: 0, modified: '', encrypted: false, skipped: '', children: [] };
        byPath.set(key, n);
        parent.children.push(n);
      }
      parent = n;
    }
    return parent;
  };
  for (const e of entries) {
    const segments = e.path.split(/[\\/]+/).filter((s) => s && s !== '.');
    if (segments.length === 0) continue;
    const key = segments.join('/');
    const existing = byPath.get(key);
    if (existing && e.kind === 'drive#folder') {
      Object.assign(existing, { path: e.path.replace(/\/+$/, ''), modified: e.modified_time, skipped: e.skipped });
      continue;
    }
    const parent = nodeFor(segments.slice(0, -1));
    const node: TreeNode = {
      path: e.path.replace(/\/+$/, ''),
      name: segments.at(-1)!,
      folder: e.kind === 'drive#folder',
      size: Number(e.size) || 0,
      modified: e.modified_time,
      encrypted: e.encrypted,
      skipped: e.skipped,
      children: [],
    };
    if (!existing) byPath.set(key, node);
    parent.children.push(node);
  }
  const sort = (n: TreeNode) => {
    n.children.sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
    n.children.forEach(sort);
    if (n.folder) n.size = n.children.reduce((s, c) => s + c.size, 0);
  };
  sort(root);
  return root.children;
}

/** Every file path under a node (the node itself when it is a file), skipped ones left out. */
export function filePaths(n: TreeNode): string[] {
  if (n.skipped) return [];
  return n.folder ? n.children.flatMap(filePaths) : [n.path];
}
