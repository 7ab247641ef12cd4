package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page in a real browser: headless Chromium driven by Selenium through Debian's {@code
 * chromium} and {@code chromium-driver} (never a downloaded driver). It opens the page against a
 * running world, sees the entity count, finds an entity, edits a field and sees the change in the
 * registry; it saves a screenshot to {@code target/inspector.png}.
 *
 * <p>Without the browser the test is skipped with a message naming the two packages, except under
 * CI ({@code CI=true}), where it fails: {@code .ci/run} installs them.
 */
class BrowserTest {

  private static final String DRIVER =
      System.getProperty("inspector.chromedriver", "/usr/bin/chromedriver");
  private static final String BROWSER =
      System.getProperty("inspector.chromium", "/usr/bin/chromium");

  /** A resource the page may write. */
  public record Wind(float speed, Label.Color color) {}

  /** A long that a JavaScript number cannot hold: 2^60 + 1. */
  private static final long BIG = (1L << 60) + 1;

  @Test
  void editsAFieldThroughThePage() throws Exception {
    requireBrowser();
    final Registry registry = new Registry();
    final List<Long> entities = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, i * 0.5f);
      registry.storage(Velocity_Traits.TYPE).emplace(e, 1, -1);
      if (i % 3 == 0) {
        registry.storage(Health_Traits.TYPE).emplace(e, 100);
      }
      entities.add(e);
    }
    final long target = entities.get(43); // no Health: the page shows it unchanging
    registry
        .storage(Label_Traits.TYPE)
        .emplace(target, new Label("target", Label.Color.GREEN, BIG, null));
    registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Health_Storage health = registry.storage(Health_Traits.TYPE);
    final ScheduleBuilder declared = Schedule.builder(registry);
    declared.set("simulation");
    // Moves every entity but the target, so that the edit below is the target's only change.
    declared
        .system(
            "movement",
            context -> {
              for (final long e : entities) {
                if (e != target) {
                  positions.setX(e, positions.x(e) + 0.01f);
                }
              }
            })
        .writes(Position_Traits.TYPE)
        .inSet("simulation");
    declared
        .system(
            "healing",
            context -> {
              for (int p = 0; p < health.size(); p++) {
                health.setPointsAt(p, (health.pointsAt(p) + 1) % 200);
              }
            })
        .writes(Health_Traits.TYPE);
    final Schedule schedule = declared.build();
    final View healthy = View.of(health, positions);
    final int[] matching = {0};
    healthy.each(entity -> matching[0]++);
    final String healthyRow = "healthy Health, Position " + matching[0];
    try (TestWorld world =
        new TestWorld(registry, b -> b.schedule(schedule).view("healthy", healthy), 2_000_000)) {
      world.frame(schedule::run);
      final WebDriver driver = driver();
      try {
        driver.get(world.page().toString());
        final WebDriverWait wait = waiting(driver);
        wait.until(d -> "300".equals(d.findElement(By.id("alive")).getText()));
        wait.until(d -> d.findElements(By.cssSelector("#entities li")).size() == 50);
        wait.until(
            d -> d.findElement(By.cssSelector("#views tbody tr")).getText().equals(healthyRow));

        final String id = Entity.index(target) + ":" + Entity.version(target);
        driver.findElement(By.id("search")).sendKeys(String.valueOf(Entity.index(target)));
        driver.findElement(By.id("search-go")).click();
        final WebElement x =
            wait.until(d -> d.findElement(By.cssSelector("input[data-field='Position.x']")));
        assertEquals(id, driver.findElement(By.id("selected-entity")).getText());
        assertEquals("43", x.getAttribute("value"));
        assertEquals(
            "target",
            driver
                .findElement(By.cssSelector("input[data-field='Label.text']"))
                .getAttribute("value"));

        x.clear();
        x.sendKeys("123.5");
        driver.findElement(By.cssSelector("button[data-save='Position']")).click();
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (world.onGame(() -> positions.x(target)) != 123.5f) {
          assertTrue(System.nanoTime() < deadline, "the edit never reached the registry");
          Thread.sleep(50);
        }
        assertEquals(21.5f, world.onGame(() -> positions.y(target)), "y kept its value");
        // The page shows the written value and no error (its status line is transient: the
        // overview's refresh replaces it every second, so it is not waited for).
        wait.until(
            d ->
                "123.5"
                    .equals(
                        d.findElement(By.cssSelector("input[data-field='Position.x']"))
                            .getAttribute("value")));
        assertEquals("", driver.findElement(By.id("status")).getAttribute("class"));

        // Saving a component writes every field back: a long past 2^53 must survive it exactly.
        final Label_Storage labels = registry.storage(Label_Traits.TYPE);
        wait.until(
            d ->
                Long.toString(BIG)
                    .equals(
                        d.findElement(By.cssSelector("input[data-field='Label.big']"))
                            .getAttribute("value")));
        final WebElement text =
            driver.findElement(By.cssSelector("input[data-field='Label.text']"));
        text.clear();
        text.sendKeys("renamed");
        driver.findElement(By.cssSelector("button[data-save='Label']")).click();
        while (!"renamed".equals(world.onGame(() -> labels.text(target)))) {
          assertTrue(System.nanoTime() < deadline, "the label edit never reached the registry");
          Thread.sleep(50);
        }
        assertEquals(BIG, world.onGame(() -> labels.big(target)), "the long kept every digit");

        // The add form inserts a component the entity lacks, its fields at their defaults (the
        // healing system then changes the points every frame).
        final Health_Storage healths = registry.storage(Health_Traits.TYPE);
        wait.until(d -> d.findElement(By.cssSelector("#add-type option[value='Health']")));
        new Select(driver.findElement(By.id("add-type"))).selectByValue("Health");
        // The page asks first, naming the risk; cancelled, nothing is sent.
        driver.findElement(By.id("add-component")).click();
        final WebElement question = wait.until(d -> visible(d, "confirm-text"));
        assertTrue(question.getText().startsWith("Add Health to " + id), question.getText());
        assertTrue(question.getText().contains("may fail"), question.getText());
        driver.findElement(By.id("confirm-cancel")).click();
        wait.until(d -> !d.findElement(By.id("confirm")).isDisplayed());
        Thread.sleep(300);
        assertFalse(
            world.onGame(() -> healths.contains(target)), "a cancelled add changed nothing");
        driver.findElement(By.id("add-component")).click();
        wait.until(d -> visible(d, "confirm-go")).click();
        while (!world.onGame(() -> healths.contains(target))) {
          assertTrue(
              System.nanoTime() < deadline, "the added component never reached the registry");
          Thread.sleep(50);
        }
        wait.until(d -> d.findElement(By.cssSelector("input[data-field='Health.points']")));
        world.assertConsistent();
        // The timings chart got its data.
        wait.until(d -> d.findElement(By.id("timings-note")).getText().startsWith("frame:"));
        // The history charts: a sample a second, drawn once there are two.
        wait.until(d -> d.findElement(By.id("history-note")).getText().contains("samples, one"));

        // The schedule panel: the plan with each system's sets; pause, step one system, disable
        // and enable a system, resume.
        wait.until(d -> d.findElements(By.cssSelector("#plan tbody tr")).size() == 2);
        assertEquals(
            "simulation",
            driver
                .findElement(By.cssSelector("#plan tr[data-system='movement'] td.sets"))
                .getText());
        wait.until(d -> "running".equals(d.findElement(By.id("schedule-state")).getText()));
        driver.findElement(By.id("schedule-pause")).click();
        wait.until(d -> "paused".equals(d.findElement(By.id("schedule-state")).getText()));
        assertTrue(world.onGame(schedule::isPaused));
        wait.until(d -> "movement".equals(d.findElement(By.id("schedule-next")).getText()));
        final long frame = world.onGame(schedule::frame);
        final float before = world.onGame(() -> positions.x(entities.get(0)));
        driver.findElement(By.id("schedule-step-system")).click();
        wait.until(d -> "healing".equals(d.findElement(By.id("schedule-next")).getText()));
        assertEquals(before + 0.01f, world.onGame(() -> positions.x(entities.get(0))));
        assertEquals(frame, world.onGame(schedule::frame), "a step inside the frame");
        driver.findElement(By.cssSelector("input[data-enable='healing']")).click();
        wait.until(d -> List.of("healing").equals(world.onGame(schedule::disabled)));
        wait.until(
            d ->
                d.findElement(By.cssSelector("#plan tr[data-system='healing']"))
                    .getAttribute("class")
                    .contains("disabled"));
        driver.findElement(By.cssSelector("input[data-enable='healing']")).click();
        wait.until(d -> world.onGame(schedule::disabled).isEmpty());
        driver.findElement(By.id("schedule-resume")).click();
        wait.until(d -> "running".equals(d.findElement(By.id("schedule-state")).getText()));
        assertFalse(world.onGame(schedule::isPaused));
        Thread.sleep(1500); // one more refresh, for the screenshot
        final Path shot =
            Path.of(System.getProperty("inspector.screenshot", "target/inspector.png"));
        Files.createDirectories(shot.toAbsolutePath().getParent());
        final File file = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(file.toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("screenshot: " + shot.toAbsolutePath());
        // The history charts, with the samples of the whole test drawn.
        ((JavascriptExecutor) driver)
            .executeScript(
                "arguments[0].scrollIntoView()", driver.findElement(By.id("history-entities")));
        wait.until(d -> d.findElement(By.id("history-note")).getText().contains("samples, one"));
        screenshot(
            driver,
            Path.of(
                System.getProperty(
                    "inspector.history-screenshot", "target/inspector-history.png")));
      } finally {
        driver.quit();
      }
    }
  }

  @Test
  void browsesTheTreeSearchesByNameAndValueAndConfirms() throws Exception {
    requireBrowser();
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final Map<Long, String> names = new HashMap<>();
    final long ship = registry.create();
    final long turret1 = registry.create();
    final long turret2 = registry.create();
    final long gunner = registry.create();
    hierarchy.attach(turret1, ship);
    hierarchy.attach(turret2, ship);
    hierarchy.attach(gunner, turret1);
    names.put(ship, "ship");
    names.put(turret1, "turret one");
    names.put(turret2, "turret two");
    names.put(gunner, "gunner");
    final Health_Storage health = registry.storage(Health_Traits.TYPE);
    final List<Long> sevens = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, i);
      if (i % 2 == 0) {
        health.emplace(e, i % 6 == 0 ? 7 : 3);
        if (i % 6 == 0) {
          sevens.add(e);
        }
      }
    }
    final Label_Storage labels = registry.storage(Label_Traits.TYPE);
    labels.emplace(ship, new Label("hull", Label.Color.RED, 0, null));
    registry.context().emplace(Wind.class, new Wind(2, Label.Color.GREEN));
    try (TestWorld world =
        new TestWorld(registry, b -> b.names(names::get).resource(Wind.class, true), 2_000_000)) {
      final WebDriver driver = driver();
      try {
        driver.get(world.page().toString());
        final WebDriverWait wait = waiting(driver);
        wait.until(d -> "104".equals(d.findElement(By.id("alive")).getText()));

        // A writable resource: its fields, an enum as a drop-down; saved into the context.
        final WebElement speed =
            wait.until(
                d -> d.findElement(By.cssSelector("#resources input[data-field='Wind.speed']")));
        assertEquals("2", speed.getAttribute("value"));
        assertEquals(
            "GREEN",
            new Select(
                    driver.findElement(
                        By.cssSelector("#resources select[data-field='Wind.color']")))
                .getFirstSelectedOption()
                .getText());
        speed.clear();
        speed.sendKeys("5.5");
        driver.findElement(By.cssSelector("button[data-save-resource='Wind']")).click();
        final long windDeadline = System.nanoTime() + 30_000_000_000L;
        while (5.5f != world.onGame(() -> registry.context().get(Wind.class).speed())) {
          assertTrue(
              System.nanoTime() < windDeadline, "the resource edit never reached the context");
          Thread.sleep(50);
        }
        assertEquals(
            Label.Color.GREEN, world.onGame(() -> registry.context().get(Wind.class).color()));

        // The tree: the ship is a root with two children; opening it lists them, named.
        driver.findElement(By.id("tab-tree")).click();
        final WebElement shipNode = wait.until(d -> node(d, ship));
        assertTrue(shipNode.getText().contains("ship (2)"), shipNode.getText());
        shipNode.findElement(By.className("toggle")).click();
        final WebElement turretNode = wait.until(d -> node(d, turret1));
        assertTrue(turretNode.getText().contains("turret one (1)"), turretNode.getText());
        assertEquals(2, driver.findElements(By.cssSelector("#tree ul .node")).size());
        // Selecting a node shows its name and its parent as a link, which selects the parent.
        turretNode.click();
        wait.until(d -> id(turret1).equals(d.findElement(By.id("selected-entity")).getText()));
        wait.until(d -> "turret one".equals(d.findElement(By.id("selected-name")).getText()));
        final WebElement up = wait.until(d -> d.findElement(By.cssSelector("#links a.goto")));
        assertEquals(id(ship), up.getText());
        up.click();
        wait.until(d -> id(ship).equals(d.findElement(By.id("selected-entity")).getText()));
        final Path treeShot =
            Path.of(System.getProperty("inspector.tree-screenshot", "target/inspector-tree.png"));
        screenshot(driver, treeShot);

        // An enum field is a drop-down of its constants.
        final Select color =
            new Select(
                wait.until(d -> d.findElement(By.cssSelector("select[data-field='Label.color']"))));
        assertEquals("RED", color.getFirstSelectedOption().getText());
        assertEquals(4, color.getOptions().size()); // null and three constants
        color.selectByValue("BLUE");
        driver.findElement(By.cssSelector("button[data-save='Label']")).click();
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (Label.Color.BLUE != world.onGame(() -> labels.color(ship))) {
          assertTrue(System.nanoTime() < deadline, "the enum edit never reached the registry");
          Thread.sleep(50);
        }

        // Search by name lists the matching entities with their names.
        final WebElement search = driver.findElement(By.id("search"));
        search.sendKeys("TURRET");
        driver.findElement(By.id("search-go")).click();
        wait.until(d -> d.findElements(By.cssSelector("#entities li")).size() == 2);
        assertEquals(
            List.of(id(turret1) + "turret one", id(turret2) + "turret two"),
            texts(driver.findElements(By.cssSelector("#entities li"))));
        search.clear();

        // Search by value: Health.points = 7, then a range.
        driver.findElement(By.id("where-field")).sendKeys("Health.points");
        driver.findElement(By.id("where-a")).sendKeys("7");
        driver.findElement(By.id("filter-go")).click();
        wait.until(d -> d.findElements(By.cssSelector("#entities li")).size() == sevens.size());
        final List<String> expected = new ArrayList<>();
        sevens.forEach(e -> expected.add(id(e)));
        assertEquals(expected, texts(driver.findElements(By.cssSelector("#entities li"))));
        new Select(driver.findElement(By.id("where-op"))).selectByValue("range");
        driver.findElement(By.id("where-a")).clear();
        driver.findElement(By.id("where-a")).sendKeys("0");
        driver.findElement(By.id("where-b")).sendKeys("5");
        driver.findElement(By.id("filter-go")).click();
        wait.until(
            d -> d.findElements(By.cssSelector("#entities li")).size() == 50 - sevens.size());
        // A bad field is refused, said in the status line.
        driver.findElement(By.id("where-field")).clear();
        driver.findElement(By.id("where-field")).sendKeys("Health.nothing");
        driver.findElement(By.id("filter-go")).click();
        wait.until(d -> d.findElement(By.id("status")).getText().contains("has no field"));

        // Add a component with its fields filled in first: a refused value adds nothing.
        driver.findElement(By.id("search")).sendKeys(String.valueOf(Entity.index(turret2)));
        driver.findElement(By.id("search-go")).click();
        wait.until(d -> id(turret2).equals(d.findElement(By.id("selected-entity")).getText()));
        wait.until(d -> d.findElement(By.cssSelector("#add-type option[value='Health']")));
        new Select(driver.findElement(By.id("add-type"))).selectByValue("Health");
        driver.findElement(By.id("add-component")).click();
        WebElement points =
            wait.until(
                d ->
                    d.findElement(
                        By.cssSelector("#confirm-fields input[data-field='Health.points']")));
        assertEquals("0", points.getAttribute("value"));
        points.clear();
        points.sendKeys("-5");
        driver.findElement(By.id("confirm-go")).click();
        wait.until(d -> d.findElement(By.id("status")).getText().contains("must not be negative"));
        assertFalse(world.onGame(() -> health.contains(turret2)), "a refused add changed nothing");
        driver.findElement(By.id("add-component")).click();
        points =
            wait.until(
                d ->
                    d.findElement(
                        By.cssSelector("#confirm-fields input[data-field='Health.points']")));
        points.clear();
        points.sendKeys("42");
        driver.findElement(By.id("confirm-go")).click();
        while (!world.onGame(() -> health.contains(turret2))) {
          assertTrue(
              System.nanoTime() < deadline, "the added component never reached the registry");
          Thread.sleep(50);
        }
        assertEquals(42, world.onGame(() -> health.points(turret2)));

        // Despawn asks first, naming the subtree; cancelled, nothing is destroyed.
        driver.findElement(By.id("search")).clear();
        driver.findElement(By.id("search")).sendKeys(String.valueOf(Entity.index(turret1)));
        driver.findElement(By.id("search-go")).click();
        wait.until(d -> id(turret1).equals(d.findElement(By.id("selected-entity")).getText()));
        driver.findElement(By.id("despawn")).click();
        final WebElement question = wait.until(d -> visible(d, "confirm-text"));
        assertEquals(
            "Despawn "
                + id(turret1)
                + " and its 1 descendant (the whole subtree)? This cannot be"
                + " undone.",
            question.getText());
        driver.findElement(By.id("confirm-cancel")).click();
        wait.until(d -> !d.findElement(By.id("confirm")).isDisplayed());
        Thread.sleep(300);
        assertTrue(world.onGame(() -> registry.valid(turret1) && registry.valid(gunner)));
        driver.findElement(By.id("despawn")).click();
        wait.until(d -> visible(d, "confirm-go")).click();
        while (world.onGame(() -> registry.valid(turret1) || registry.valid(gunner))) {
          assertTrue(System.nanoTime() < deadline, "the despawn never reached the registry");
          Thread.sleep(50);
        }
        wait.until(d -> !d.findElement(By.id("despawn")).isEnabled());
        assertEquals(1, world.onGame(() -> hierarchy.childCount(ship)));
        world.assertConsistent();
      } finally {
        driver.quit();
      }
    }
  }

  @Test
  void browsesARelationshipKindAsATreeAndDespawnsByItsPolicy() throws Exception {
    requireBrowser();
    final Registry registry = new Registry();
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final Map<Long, String> names = new HashMap<>();
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long bomber = registry.create();
    final long drone = registry.create();
    final long bystander = registry.create();
    docked.emplace(fighter, carrier, 1);
    docked.emplace(bomber, carrier, 2);
    docked.emplace(drone, fighter, 0);
    names.put(carrier, "carrier");
    names.put(fighter, "fighter");
    try (TestWorld world = new TestWorld(registry, b -> b.names(names::get), 2_000_000)) {
      final WebDriver driver = driver();
      try {
        driver.get(world.page().toString());
        final WebDriverWait wait = waiting(driver);
        wait.until(d -> "5".equals(d.findElement(By.id("alive")).getText()));
        // The tree of the kind: the carrier is its one root, with its two sources.
        driver.findElement(By.id("tab-tree")).click();
        final Select kind = new Select(wait.until(d -> d.findElement(By.id("tree-kind"))));
        wait.until(d -> kind.getOptions().size() == 2);
        kind.selectByValue("Docked");
        final WebElement carrierNode = wait.until(d -> node(d, carrier));
        assertTrue(carrierNode.getText().contains("carrier (2)"), carrierNode.getText());
        assertEquals(1, driver.findElements(By.cssSelector("#tree > li")).size());
        carrierNode.findElement(By.className("toggle")).click();
        final WebElement fighterNode = wait.until(d -> node(d, fighter));
        assertTrue(fighterNode.getText().contains("fighter (1)"), fighterNode.getText());
        wait.until(d -> null != node(d, bomber));
        // A source's panel: its target as a link, which selects the target, and its sources.
        fighterNode.click();
        final WebElement line =
            wait.until(
                d -> d.findElement(By.cssSelector("#links .relationship[data-kind='Docked']")));
        assertEquals("Docked target: " + id(carrier) + ", sources: 1", line.getText());
        line.findElement(By.cssSelector("a.goto")).click();
        wait.until(d -> id(carrier).equals(d.findElement(By.id("selected-entity")).getText()));
        // Despawn names the linked destroys, then takes the sources and theirs.
        driver.findElement(By.id("despawn")).click();
        final WebElement question = wait.until(d -> visible(d, "confirm-text"));
        assertEquals(
            "Despawn "
                + id(carrier)
                + "? Its 2 sources of Docked (and theirs) go with it. This cannot be undone.",
            question.getText());
        driver.findElement(By.id("confirm-go")).click();
        final long deadline = System.nanoTime() + 30_000_000_000L;
        while (world.onGame(registry::alive) > 1) {
          assertTrue(System.nanoTime() < deadline, "the despawn never reached the registry");
          Thread.sleep(50);
        }
        assertTrue(world.onGame(() -> registry.valid(bystander)));
        world.assertConsistent();
      } finally {
        driver.quit();
      }
    }
  }

  private static String id(final long entity) {
    return Entity.index(entity) + ":" + Entity.version(entity);
  }

  private static WebElement node(final WebDriver driver, final long entity) {
    final List<WebElement> found =
        driver.findElements(By.cssSelector("#tree .node[data-node='" + id(entity) + "']"));
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<String> texts(final List<WebElement> elements) {
    final List<String> texts = new ArrayList<>();
    for (final WebElement element : elements) {
      texts.add(element.getText().replace("\n", ""));
    }
    return texts;
  }

  private static void screenshot(final WebDriver driver, final Path shot) throws Exception {
    Files.createDirectories(shot.toAbsolutePath().getParent());
    final File file = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
    Files.copy(file.toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("screenshot: " + shot.toAbsolutePath());
  }

  private static void requireBrowser() {
    final boolean present = new File(DRIVER).canExecute() && new File(BROWSER).canExecute();
    if (present) {
      return;
    }
    final String message =
        "the browser test needs Chromium and its driver ("
            + BROWSER
            + ", "
            + DRIVER
            + "): install the Debian packages chromium and chromium-driver"
            + " (apt-get install chromium chromium-driver)";
    if ("true".equals(System.getenv("CI"))) {
      fail("CI=true: " + message);
    }
    System.err.println("SKIPPED BrowserTest: " + message);
    Assumptions.abort(message);
  }

  private static WebDriver driver() {
    // The driver and the browser are given: Selenium Manager has nothing to look up or download.
    final ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER))
            .usingAnyFreePort()
            .build();
    final ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000");
    return new ChromeDriver(service, options);
  }

  /**
   * Waits up to 30 s, retrying a condition whose element was redrawn meanwhile (the overview's
   * tables are rebuilt every second).
   */
  private static WebDriverWait waiting(final WebDriver driver) {
    final WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
    wait.ignoring(StaleElementReferenceException.class);
    return wait;
  }

  private static WebElement visible(final WebDriver driver, final String id) {
    final WebElement element = driver.findElement(By.id(id));
    return element.isDisplayed() ? element : null;
  }
}
