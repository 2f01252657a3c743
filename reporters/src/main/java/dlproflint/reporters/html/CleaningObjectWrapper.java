package dlproflint.reporters.html;

import freemarker.template.Configuration;
import freemarker.template.DefaultObjectWrapper;
import freemarker.template.SimpleScalar;
import freemarker.template.TemplateModel;
import freemarker.template.TemplateModelException;

/**
 * Passes every string the template reads through {@link Text#clean}, a second line of defence for
 * control characters in case a view forgets to clean a value. HTML escaping itself is done by the
 * {@code .ftlh} output format.
 */
final class CleaningObjectWrapper extends DefaultObjectWrapper {
    CleaningObjectWrapper() {
        super(Configuration.VERSION_2_3_34);
    }

    @Override
    public TemplateModel wrap(Object obj) throws TemplateModelException {
        if (obj instanceof String s) return new SimpleScalar(Text.escapeControls(s));
        return super.wrap(obj);
    }
}
