import { templatesProblems } from '../errors.js';
import type { TemplateRepository } from '../repositories/template-repository.js';

/**
 * Deletes one stored version; the next newest becomes latest.
 * @throws ProblemError `TPL_ERR_TEMPLATE_NOT_FOUND` when it is not stored.
 */
export async function deleteTemplateVersion(
  repository: TemplateRepository,
  templateId: string,
  templateVersion: string,
): Promise<void> {
  if (!(await repository.deleteVersion(templateId, templateVersion))) {
    throw templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', `No template ${templateId} ${templateVersion}`, {
      templateId,
      templateVersion,
    });
  }
}

/**
 * Deletes every version of a templateId and returns how many there were.
 * @throws ProblemError `TPL_ERR_TEMPLATE_NOT_FOUND` when none is stored.
 */
export async function deleteAllTemplateVersions(repository: TemplateRepository, templateId: string): Promise<number> {
  const deleted = await repository.deleteAllVersions(templateId);
  if (deleted === 0)
    throw templatesProblems.create('TPL_ERR_TEMPLATE_NOT_FOUND', `No template ${templateId}`, { templateId });
  return deleted;
}
