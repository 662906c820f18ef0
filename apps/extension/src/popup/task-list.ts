/**
 * The popup's list of the latest cloud downloads, updated in place on every poll (a row being clicked is never
 * swapped out under the pointer). A finished download's name opens its folder in Haul in a new tab.
 */
import type { DriveTask } from '@haul/shared';
import { PHASE } from '@haul/shared/plain';
import { folderPageOf, isFinished, taskLine } from '../lib/cloud-tasks';

function row(list: HTMLUListElement, id: string): HTMLLIElement {
  const found = list.querySelector<HTMLLIElement>(`li[data-id="${CSS.escape(id)}"]`);
  if (found) return found;
  const li = document.createElement('li');
  li.dataset.id = id;
  return li;
}

function fill(li: HTMLLIElement, t: DriveTask, server: string): void {
  if (li.dataset.phase === t.phase && li.dataset.line === taskLine(t) && li.dataset.name === t.file_name) return;
  li.dataset.phase = t.phase;
  li.dataset.line = taskLine(t);
  li.dataset.name = t.file_name;
  li.setAttribute('aria-label', t.file_name);
  li.replaceChildren();
  if (t.phase === PHASE.COMPLETE) {
    const link = document.createElement('a');
    link.className = 'name';
    link.href = folderPageOf(server, t);
    link.textContent = t.file_name;
    link.title = 'Open its folder in Haul';
    link.addEventListener('click', (e) => {
      e.preventDefault();
      void chrome.tabs.create({ url: link.href });
    });
    li.append(link);
  } else {
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = t.file_name;
    li.append(name);
  }
  if (!isFinished(t)) {
    const bar = document.createElement('progress');
    bar.max = 100;
    bar.value = t.progress;
    bar.setAttribute('aria-label', `${t.file_name}: ${Math.floor(t.progress)}%`);
    li.append(bar);
  }
  const line = document.createElement('span');
  line.className = 'line';
  line.textContent = taskLine(t);
  li.append(line);
}

/** Shows `tasks` in this order, reusing rows of the same task. */
export function renderTasks(list: HTMLUListElement, tasks: DriveTask[], server: string): void {
  const keep = new Set<Element>();
  for (const t of tasks) {
    const li = row(list, t.id);
    fill(li, t, server);
    list.append(li);
    keep.add(li);
  }
  for (const li of [...list.children]) if (!keep.has(li)) li.remove();
}
