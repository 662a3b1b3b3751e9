using UnityEngine;

// Added only by Bootstrap, in an `#if UNITY_ANDROID` branch the index does not compile.
public class AndroidBackButton : MonoBehaviour
{
    private void Update()
    {
    }
}
