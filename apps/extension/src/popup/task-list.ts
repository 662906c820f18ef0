/**
 * The popup's list of the latest cloud downloads, updated in place on every poll (a row being clicked is never
 * swapped out under the pointer). A finished download's name opens its file in Haul in a new tab; one a limit
 * stopped links to the drive's dialog about that limit.
 */
import type { DriveTask } from '@haul/shared';
import { PHASE } from '@haul/shared/plain';
import { isFinished, resultPageOf, taskLine } from '../lib/cloud-tasks';
import { t } from '../lib/i18n';
import { limitLinkFor } from '../lib/words';

function row(list: HTMLUListElement, id: string): HTMLLIElement {
  const found = list.querySelector<HTMLLIElement>(`li[data-id="${CSS.escape(id)}"]`);
  if (found) return found;
  const li = document.createElement('li');
  li.dataset.id = id;
  return li;
}

/** A link that opens a tab (a popup's own navigation would close it). */
function tabLink(href: string, text: string, className: string, title = ''): HTMLAnchorElement {
  const link = document.createElement('a');
  link.className = className;
  link.href = href;
  link.textContent = text;
  if (title) link.title = title;
  link.addEventListener('click', (e) => {
    e.preventDefault();
    void chrome.tabs.create({ url: link.href });
  });
  return link;
}

function fill(li: HTMLLIElement, task: DriveTask, server: string): void {
  const line = taskLine(task);
  if (li.dataset.phase === task.phase && li.dataset.line === line && li.dataset.name === task.file_name) return;
  li.dataset.phase = task.phase;
  li.dataset.line = line;
  li.dataset.name = task.file_name;
  li.setAttribute('aria-label', task.file_name);
  li.replaceChildren();
  if (task.phase === PHASE.COMPLETE) li.append(tabLink(resultPageOf(server, task), task.file_name, 'name', t('openInHaul')));
  else {
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = task.file_name;
    li.append(name);
  }
  if (!isFinished(task)) {
    const bar = document.createElement('progress');
    bar.max = 100;
    bar.value = task.progress;
    bar.setAttribute('aria-label', `${task.file_name}: ${Math.floor(task.progress)}%`);
    li.append(bar);
  }
  const words = document.createElement('span');
  words.className = 'line';
  words.textContent = line;
  li.append(words);
  const limit = task.phase === PHASE.ERROR && task.params.error ? limitLinkFor(task.params.error, server) : null;
  if (limit) li.append(tabLink(limit.href, limit.label, 'limit'));
}

/** Shows `tasks` in this order, reusing rows of the same task. */
export function renderTasks(list: HTMLUListElement, tasks: DriveTask[], server: string): void {
  const keep = new Set<Element>();
  for (const task of tasks) {
    const li = row(list, task.id);
    fill(li, task, server);
    list.append(li);
    keep.add(li);
  }
  for (const li of [...list.children]) if (!keep.has(li)) li.remove();
}
