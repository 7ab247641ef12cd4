// The processor's errors reached the Maven log through kapt, each at its Kotlin line.
def log = new File(basedir, 'build.log').text
[
    "Broken.kt:9: error: [PhalanxFieldType] field 'lists' has type java.util.List<java.lang.String>[]",
    "Broken.kt:16: error: [PhalanxConstructor] app.Range has no accessible constructor",
].each {
    assert log.contains(it) : "build.log lacks ${it}"
}
