// The caller's courses (#/courses): each one's map to open, the page of those they teach, and a
// form to start a new one, whose address is suggested from its title.
import { createCourse, errorMessage } from './api.js';
import { appState } from './app-state.js';
import { DEFAULT_COURSE } from './course-choice.js';
import { el, isBusy, setBusy, setFieldError, showMessage } from './dom.js';
import { msg, setText, t } from './i18n.js';
import { knowCourses, switchCourse } from './loader.js';

const byId = (id) => document.getElementById(id);

/** A course's address from its title: "CS 101, Spring!" → "cs-101-spring" (ASCII letters and digits). */
export function slugFrom(title) {
  return title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 48).replace(/-+$/, '');
}

/** Whether `slug` is a course's address (CourseSlug: 2 to 48 of a-z, 0-9 and single hyphens). */
export const isSlug = (slug) => slug.length >= 2 && slug.length <= 48 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug);

export class CoursesScreen {
  constructor(onFailure) {
    this.onFailure = onFailure;
    this.slugEdited = false;
    const title = byId('course-title'), slug = byId('course-slug');
    title.addEventListener('input', () => { if (!this.slugEdited) { slug.value = slugFrom(title.value); this.hint(); } });
    slug.addEventListener('input', () => { this.slugEdited = slug.value !== ''; this.hint(); });
    byId('course-form').addEventListener('submit', (event) => { event.preventDefault(); this.create(); });
    appState.subscribe(['courses', 'canCreateCourses'], () => { if (!byId('courses-screen').hidden) this.draw(); });
  }

  async show() {
    this.hint();
    this.draw();
    await knowCourses();
  }

  /** Says where the new course's map will be. */
  hint() {
    const slug = byId('course-slug').value.trim();
    setText(byId('course-slug-hint'), isSlug(slug) ? msg('courses.addressHint', { address: `${location.origin}/c/${slug}/` }) : msg('courses.slugRule'));
  }

  draw() {
    // On a server whose admins alone start courses, others are told whom to ask instead of a form.
    const { canCreateCourses } = appState.state;
    byId('course-form').hidden = !canCreateCourses;
    byId('course-new-closed').hidden = canCreateCourses;
    const courses = appState.state.courses;
    const list = byId('courses-list');
    list.setAttribute('aria-busy', String(courses === null));
    if (courses === null) return;
    list.replaceChildren(...courses.filter((course) => course.role !== null || course.slug === DEFAULT_COURSE).map((course) => this.item(course)));
  }

  item(course) {
    const open = el('button', { type: 'button', class: 'button small primary' }, t('courses.open'));
    open.addEventListener('click', async () => {
      location.hash = '#/map';
      await switchCourse(course.slug);
    });
    const badges = [
      course.role === 'instructor' ? el('span', { class: 'badge' }, t('courses.instructor')) : null,
      course.archived ? el('span', { class: 'badge warn' }, t('courses.archived')) : null,
    ];
    return el('li', { class: 'admin-item', 'data-course': course.slug },
      el('div', { class: 'admin-pin' }, el('strong', {}, course.title), ' ', badges),
      el('span', { class: 'admin-meta', translate: 'no' }, `${location.origin}${course.path}`),
      el('div', { class: 'course-actions' }, open,
        course.invite ? el('a', { class: 'button small', href: `#/course/${course.slug}/roster` }, t('courses.manage')) : null));
  }

  async create() {
    const button = byId('course-create');
    if (isBusy(button)) return;
    const title = byId('course-title').value.trim();
    const slug = byId('course-slug').value.trim();
    const visibility = new FormData(byId('course-form')).get('visibility');
    const slugError = isSlug(slug) ? '' : msg('error.validation.courseSlug');
    setFieldError(byId('course-slug'), byId('course-slug-error'), slugError);
    showMessage(byId('course-form-error'), title ? '' : msg('error.validation.courseTitle'));
    if (slugError || !title) return;
    setBusy(button, true);
    try {
      const course = await createCourse({ title, slug, visibility });
      byId('course-form').reset();
      this.slugEdited = false;
      await knowCourses();
      location.hash = `#/course/${course.slug}/invite`;
    } catch (failure) {
      if (failure.kind === 'session') { this.onFailure(failure); return; }
      showMessage(byId('course-form-error'), errorMessage(failure));
    } finally {
      setBusy(button, false);
    }
  }
}
