/** The entries of an archive as a tree with a checkbox each: a folder's box chooses everything under it. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize } from '@haul/shared/plain';
import { formatTime } from '../files/format-time';
import { Icon } from '../../components/icon';
import { filePaths, type TreeNode } from './archive-tree';
import { TickBox } from './tick-box';

interface Props {
  nodes: TreeNode[];
  chosen: Set<string>;
  onChange: (next: Set<string>) => void;
}

export function ArchiveTreeView({ nodes, chosen, onChange }: Props) {
  return (
    <ul className="archive-tree" role="tree">
      {nodes.map((n) => (
        <Row key={n.path} node={n} depth={0} chosen={chosen} onChange={onChange} />
      ))}
    </ul>
  );
}

function Row({ node, depth, chosen, onChange }: { node: TreeNode; depth: number } & Omit<Props, 'nodes'>) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(depth < 1);
  const paths = filePaths(node);
  const on = paths.length > 0 && paths.every((p) => chosen.has(p));
  const some = !on && paths.some((p) => chosen.has(p));
  const toggle = () => {
    const next = new Set(chosen);
    for (const p of paths) if (on) next.delete(p);
    else next.add(p);
    onChange(next);
  };
  // As the file list writes its dates; '' rather than its '-' where the archive keeps none.
  const date = node.modified ? formatTime(node.modified, i18n.language) : '';
  const twisty = open ? t('archives.collapse') : t('archives.expand');
  return (
    <li role="treeitem" aria-expanded={node.folder ? open : undefined} aria-selected={on}>
      <div className="archive-row" style={{ paddingInlineStart: `${depth * 20}px` }}>
        {node.folder ? (
          <button type="button" className="link archive-twisty" aria-label={twisty} title={twisty} onClick={() => setOpen(!open)}>
            <Icon name="chevron" size={14} className={open ? 'open' : undefined} />
          </button>
        ) : (
          <span className="archive-twisty" />
        )}
        <TickBox label={node.name} checked={on} mixed={some} disabled={paths.length === 0} onChange={toggle} />
        <Icon name={node.folder ? 'folder' : 'file'} size={16} />
        <span className="archive-name">{node.name}</span>
        {node.encrypted && (
          <span className="archive-lock" title={t('archives.encrypted')}>
            <Icon name="lock" size={14} />
            <span className="archive-sr">{t('archives.encrypted')}</span>
          </span>
        )}
        {node.skipped && <span className="muted archive-skip">{t(`archives.skipped.${node.skipped}`)}</span>}
        <span className="muted archive-size">{node.folder ? '' : formatSize(node.size, 1, i18n.language)}</span>
        <span className="muted archive-date">{date}</span>
      </div>
      {node.folder && open && node.children.length > 0 && (
        <ul role="group">
          {node.children.map((c) => (
            <Row key={c.path} node={c} depth={depth + 1} chosen={chosen} onChange={onChange} />
          ))}
        </ul>
      )}
    </li>
  );
}
