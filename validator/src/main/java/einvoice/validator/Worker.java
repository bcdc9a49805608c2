package einvoice.validator;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * One worker process of the validator ({@link WorkerPool}): started by the service with its kind
 * ({@code validate} or {@code render}), it compiles what that kind needs and runs its warm-up
 * documents, says it is ready, then runs the jobs the service writes on its stdin one at a time and
 * writes each answer on its stdout, until its stdin ends. A job past its time limit, or cancelled,
 * ends the whole process: nothing a job leaves behind (Saxon's or FOP's state included) reaches
 * another job, and no thread needs stopping.
 *
 * <p>Usage (by the service only): java -cp peppol-validator.jar einvoice.validator.Worker validate|render
 */
public final class Worker {
  /** Runs jobs of one kind. */
  private interface Runner {
    /** What the service learns of the worker once it is warm: the rule set for validations (JSON), "{}" for renderings. */
    String ready();

    Answer run(Job job) throws Exception;
  }

  private Worker() {}

  public static void main(String[] args) throws Exception {
    // stdout carries answers alone: anything a library prints goes to stderr instead.
    DataOutputStream answers = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));
    System.setOut(System.err);
    DataInputStream jobs = new DataInputStream(new BufferedInputStream(System.in));
    Runner runner = WorkerPool.Kind.valueOf(args[0].toUpperCase(java.util.Locale.ROOT)) == WorkerPool.Kind.VALIDATE ? validations() : renderings();
    answers.writeUTF(runner.ready());
    answers.flush();
    while (true) {
      Job job;
      try {
        job = Job.read(jobs);
      } catch (EOFException e) {
        return; // Retired by the service, or the service is gone.
      }
      answerOf(runner, job).write(answers);
    }
  }

  private static Answer answerOf(Runner runner, Job job) {
    try {
      return runner.run(job);
    } catch (IllegalArgumentException e) {
      // An unknown format or language.
      return Answer.json(409, new Json().begin('{').key("error").value(e.getMessage()).end('}'));
    } catch (Exception e) {
      // The engine failed, not the document: a 500 the caller retries, never a verdict.
      e.printStackTrace();
      return Answer.json(500, new Json().begin('{').key("error").value(String.valueOf(e.getMessage())).end('}'));
    }
  }

  private static Runner validations() throws IOException {
    OfficialRules rules = new OfficialRules();
    warmUp(rules);
    return new Runner() {
      @Override
      public String ready() {
        return ruleSet(new Json(), rules).toString();
      }

      @Override
      public Answer run(Job job) throws Exception {
        if (job.kind() != WorkerPool.Kind.VALIDATE) {
          throw new IllegalStateException("a validation worker was given a " + job.kind() + " job");
        }
        return Answer.json(200, report(rules.validate(job.document()), rules));
      }
    };
  }

  private static Runner renderings() throws Exception {
    Renderer renderer = new Renderer();
    warmUp(renderer);
    return new Runner() {
      @Override
      public String ready() {
        return "{}";
      }

      @Override
      public Answer run(Job job) throws Exception {
        if (job.kind() != WorkerPool.Kind.RENDER) {
          throw new IllegalStateException("a rendering worker was given a " + job.kind() + " job");
        }
        Renderer.Format format = Renderer.Format.named(job.format());
        try {
          return new Answer(200, format.contentType, renderer.render(job.document(), format, job.lang(), job.notice()));
        } catch (Renderer.NotRenderable e) {
          return Answer.json(422, new Json().begin('{').key("error").value(e.getMessage()).key("problem").value("not_renderable").end('}'));
        }
      }
    };
  }

  /** The stylesheets, too, compile parts of themselves on first use: each format once, before the worker takes jobs. */
  private static void warmUp(Renderer renderer) throws IOException {
    try {
      byte[] ubl = resourceBytes("/warm-up/invoice.xml");
      byte[] cii = resourceBytes("/warm-up/invoice-cii.xml");
      for (Renderer.Format format : Renderer.Format.values()) {
        renderer.render(format == Renderer.Format.FACTURX ? cii : ubl, format, "en", "");
      }
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("the renderer failed on the warm-up invoice: " + e.getMessage(), e);
    }
  }

  private static byte[] resourceBytes(String path) throws IOException {
    try (InputStream in = Worker.class.getResourceAsStream(path)) {
      return in.readAllBytes();
    }
  }

  /**
   * The engine compiles much of a rule set on its first document (seconds), so one invoice and one
   * credit note go through before the worker takes jobs: no caller waits for that, and no time limit
   * ends a worker halfway through it. Both documents are valid; one that is not means the rules or
   * the engine changed, and the worker refuses to start (so does the service, at its start).
   */
  private static void warmUp(OfficialRules rules) throws IOException {
    for (String name : new String[] {"invoice.xml", "credit-note.xml"}) {
      byte[] document;
      try (InputStream in = Worker.class.getResourceAsStream("/warm-up/" + name)) {
        document = in.readAllBytes();
      }
      if (!rules.validate(document).valid()) {
        throw new IllegalStateException("the warm-up document " + name + " is not valid under " + rules.ruleSet().id());
      }
    }
  }

  private static Json ruleSet(Json json, OfficialRules rules) {
    OfficialRules.RuleSet set = rules.ruleSet();
    return json.begin('{').key("id").value(set.id()).key("name").value(set.name())
        .key("valid_from").value(set.validFrom()).end('}');
  }

  private static Json report(OfficialRules.Report report, OfficialRules rules) {
    // A body no rule set fits names the billing release, as it always did.
    Json json = new Json().begin('{').key("rule_set").value(report.ruleSet() != null ? report.ruleSet() : rules.ruleSet().id())
        .key("document_type").value(report.documentType()).key("problem");
    if (report.problem() == null) {
      json.value((String) null);
    } else {
      json.begin('{').key("code").value(report.problem().code()).key("message").value(report.problem().message()).end('}');
    }
    json.key("valid").value(report.valid()).key("findings").begin('[');
    for (OfficialRules.Finding finding : report.findings()) {
      json.begin('{').key("rule").value(finding.rule()).key("severity").value(finding.fatal() ? "fatal" : "warning")
          .key("location").value(finding.location()).key("message").value(finding.message()).end('}');
    }
    return json.end(']').end('}');
  }
}
